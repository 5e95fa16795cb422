/* The CSV reader: any bytes give rows of fields inside the reader's buffer
 * with non-decreasing line numbers, or an error with a position. */
#include "fuzz_util.h"
#include "csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fmemopen(size ? (void *)data : (void *)"", size, "rb");
    if (!f)
        return 0;
    ordo__csv_reader r;
    ordo__csv_open_sized(&r, f, size ? 1 + data[0] % 64 : 1); /* small: refills and growth */
    size_t last_line = 0, rows = 0;
    int rc;
    while ((rc = ordo__csv_next(&r)) == 1) {
        CHECK(r.nfields >= 1);
        for (size_t i = 0; i < r.nfields; i++) {
            const ordo_csv_field *fl = &r.fields[i];
            CHECK(fl->p >= r.buf && fl->p + fl->n <= r.buf + r.len);
            CHECK(fl->line >= last_line && fl->line >= 1 && fl->column >= 1);
            CHECK(fl->n <= size);
            last_line = fl->line;
        }
        CHECK(++rows <= size + 1);
    }
    if (rc < 0)
        CHECK(r.err[0] && r.err_line >= 1 && r.err_column >= 1);
    ordo__csv_close(&r);
    fclose(f);
    return 0;
}
