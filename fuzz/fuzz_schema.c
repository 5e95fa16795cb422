/* The schema parser: any text either parses into named, typed columns or
 * is refused with a message; never a crash. */
#include "fuzz_util.h"
#include "schema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *formats[] = {"lexkey", "lexkey-legacy", "ordered", ""};
    const char *format = formats[size ? data[0] % 4 : 0];
    char *text = malloc(size + 1);
    if (size)
        memcpy(text, data + 1, size - 1);
    text[size ? size - 1 : 0] = 0;
    ordo_schema s;
    char err[256] = "";
    if (ordo__schema_parse(text, format, &s, err, sizeof err)) {
        CHECK(s.ncols >= 1);
        for (size_t i = 0; i < s.ncols; i++)
            CHECK(s.cols[i].name[0] && s.cols[i].sql && s.cols[i].type && s.cols[i].sql_name);
        ordo_schema_free(&s);
    } else {
        CHECK(err[0] != 0);
    }
    free(text);
    return 0;
}
