/* The README's example: the SPEC's ("foo", 42, true) key, printed in hex. */
#include <ordo.h>
#include <stdio.h>

int main(void)
{
    unsigned char buf[64];
    char hex[128];
    size_t len, hlen;
    ordo_lexkey b;
    ordo_lexkey_init(&b, buf, sizeof buf, 0);
    ordo_lexkey_string(&b, "foo", 3);
    ordo_lexkey_int(&b, 42);
    ordo_lexkey_bool(&b, true);
    ordo_status s = ordo_lexkey_finish(&b, &len);
    if (s != ORDO_OK) {
        fprintf(stderr, "lexkey_basic: %s\n", ordo_status_name(s));
        return 1;
    }
    ordo_hex_encode(buf, len, hex, sizeof hex, &hlen);
    printf("%.*s\n", (int)hlen, hex);
    return 0;
}
