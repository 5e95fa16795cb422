/* Prints the SPEC's ("foo", 42, true) key; the install test checks it. */
#include <ordo.h>
#include <stdio.h>

int main(void)
{
    unsigned char buf[32], text[64];
    size_t len = 0, tlen = 0;
    ordo_lexkey b;
    ordo_lexkey_init(&b, buf, sizeof buf, 0);
    ordo_lexkey_string(&b, "foo", 3);
    ordo_lexkey_int(&b, 42);
    ordo_lexkey_bool(&b, true);
    if (ordo_lexkey_finish(&b, &len) != ORDO_OK ||
        ordo_hex_encode(buf, len, (char *)text, sizeof text, &tlen) != ORDO_OK)
        return 1;
    printf("%.*s\n", (int)tlen, (const char *)text);
    return 0;
}
