/* Run files as the range merger reads them (load/runs.c, run_index.c): any
 * bytes as a file, read with or without its index, narrowed to a range
 * taken from the input. Errors are fine; a crash, a read past the file, a
 * record that does not fit in what the reader may read or one read from a
 * block whose checksum was not checked is not. */
#include "fuzz_util.h"

#include "runs.h"

#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/ordo-fuzz-run-%ld", (long)getpid());
    bytes in = {data, size};
    uint8_t mode = take8(&in), lo_len = take8(&in) % 8, hi_len = take8(&in) % 8;
    uint8_t lo[8] = {0}, hi[8] = {0};
    for (size_t i = 0; i < lo_len; i++)
        lo[i] = take8(&in);
    for (size_t i = 0; i < hi_len; i++)
        hi[i] = take8(&in);
    FILE *f = fopen(path, "wb");
    CHECK(f);
    CHECK(fwrite(in.p, 1, in.n, f) == in.n);
    CHECK(fclose(f) == 0);
    ordo__run_reader r;
    char err[512];
    int indexed = mode & 1;
    if (ordo__run_reader_open(&r, path, 1 + (size_t)(mode >> 1) * 64, indexed, err, sizeof err)) {
        CHECK(r.end <= in.n);
        for (size_t i = 0; i < r.ix.count; i++)
            CHECK(r.ix.at[i] < r.ix.len);
        if (ordo__run_reader_range(&r, mode & 2 ? lo : NULL, lo_len, mode & 4 ? hi : NULL, hi_len,
                                   err, sizeof err)) {
            int got;
            while ((got = ordo__run_reader_next(&r, err, sizeof err)) == 1) {
                CHECK(r.pos <= r.end && r.end <= in.n && ordo__rec_size(r.rec) <= r.cap);
                CHECK(!r.nblk || r.pos <= r.checked); /* only from checked blocks */
            }
            CHECK(got < 0 || r.blk_next == r.nblk); /* read to the end: every block checked */
        }
    } else {
        CHECK(indexed || !r.malformed);
    }
    ordo__run_reader_close(&r);
    return 0;
}
