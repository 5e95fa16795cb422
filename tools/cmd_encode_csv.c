/* ordo encode --schema: CSV rows to one key per row, in input order, over
 * the ingest library's encoder (ordo_encoder: chunks on worker threads,
 * batches in input order). This prints the keys and the first error. */
#include "cli.h"
#include "decompress.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { OUT_HEX, OUT_RAW, OUT_JSON };

/* The keys of a part of a batch as lowercase hex lines, as JSON lines
 * ("0a1b"), or as 4-byte big-endian lengths and the bytes (raw), appended
 * to out: the encoder's
 * format hook, so that the workers format in parallel (while the keys are
 * in cache) and the main thread only writes. */
static int format_keys(void *ctx, const ordo_encoder_batch *b, ordo_buf *out)
{
    int mode = *(const int *)ctx, raw = mode == OUT_RAW, json = mode == OUT_JSON;
    size_t total = b->key_offsets[b->rows];
    size_t base = b->key_offsets[0];
    size_t need = out->len + (raw ? total - base : 2 * (total - base)) +
                  (raw ? 4 : json ? 3 : 1) * b->rows;
    if (need > out->cap) {
        size_t cap = need + need / 2;
        char *p = realloc(out->data, cap);
        if (!p)
            return 0;
        out->data = p, out->cap = cap;
    }
    char *p = out->data + out->len;
    for (size_t r = 0; r < b->rows; r++) {
        const uint8_t *k = b->keys + b->key_offsets[r];
        size_t n = b->key_offsets[r + 1] - b->key_offsets[r];
        if (raw) {
            p[0] = (char)(n >> 24), p[1] = (char)(n >> 16), p[2] = (char)(n >> 8), p[3] = (char)n;
            memcpy(p + 4, k, n);
            p += 4 + n;
        } else {
            size_t len = 0; /* sized above: cannot fail */
            if (json)
                ordo_json_encode(k, n, p, 2 * n + 2, &len);
            else
                ordo_hex_encode(k, n, p, 2 * n, &len);
            p[len] = '\n';
            p += len + 1;
        }
    }
    out->len = (size_t)(p - out->data);
    return 1;
}

int encode_csv(const char *format, const char *schema_text, const char *key, int header,
               const char *output, const char *path, int threads, size_t max_row)
{
    ordo_format fmt = cli_format("encode", format);
    int mode = !strcmp(output, "raw") ? OUT_RAW : !strcmp(output, "json") ? OUT_JSON : OUT_HEX;
    if (mode == OUT_HEX && strcmp(output, "hex"))
        cli_fail("encode: --output: expected hex, json or raw, got '%s'", output);
    ordo_status impl;
    ordo_impl_name(&impl); /* refused before any input is read */
    if (impl != ORDO_OK)
        cli_fail("encode: ORDO_IMPL: %s", ordo_status_message(impl));
    ordo_schema s;
    ordo_error e;
    /* with --key, the table as ordo load and ordo sort read it (its other
     * columns need not fit the key's format: a packed key beside text) */
    if (ordo_schema_parse(schema_text, key ? ORDO_FORMAT_ORDERED : fmt, &s, &e) != ORDO_OK)
        cli_fail("encode: --schema: %s", e.message);
    const char *name = strcmp(path, "-") ? path : "<stdin>";
    int fd = strcmp(path, "-") ? open(path, O_RDONLY) : 0;
    if (fd < 0)
        cli_fail("encode: cannot open '%s'", path);
    decomp *dc = NULL; /* gzip and zstd inputs, told by their bytes */
    int rfd = fd;
    char dmsg[600];
    if (!decomp_open(fd, name, &dc, &rfd, dmsg, sizeof dmsg))
        cli_fail("encode: %s", dmsg);
    ordo_encoder_options o = {0};
    o.threads = threads > 1 ? (size_t)threads : 0;
    o.header = header;
    o.max_row_bytes = max_row;
    o.name = name;
    o.format = format_keys;
    o.format_ctx = &mode;
    ordo_encoder *enc = NULL;
    if (ordo_encoder_open(&s, key, fmt, &o, &enc, &e) != ORDO_OK)
        cli_fail(key ? "encode: --key: %s" : "encode: %s", e.message);
    if (ordo_encoder_input_fd(enc, rfd, &e) != ORDO_OK)
        cli_fail("encode: %s: %s", name, e.message);
    const ordo_encoder_batch *b;
    ordo_status st;
    while ((st = ordo_encoder_next(enc, &b, &e)) == ORDO_OK && b)
        if (b->output_len && fwrite(b->output, 1, b->output_len, stdout) != b->output_len)
            cli_write_error();
    ordo_encoder_close(enc);
    if (dc && st != ORDO_OK) /* damage just after a bad row is found first */
        decomp_drain(dc, rfd, (size_t)64 << 20);
    if (dc) /* the decompressor's end: a reader that stopped early stops it too */
        close(rfd);
    /* damaged compressed data, whatever the rows read from it said */
    if (!decomp_finish(dc, dmsg, sizeof dmsg))
        cli_fail_plain("%s", dmsg);
    if (fd > 0)
        close(fd);
    ordo_schema_free(&s);
    if (st == ORDO_OK)
        return 0;
    /* stdout is checked by cli_fail_plain or by main: a write error and a
     * bad row are both reported */
    if (st == ORDO_ERR_OUT_OF_MEMORY)
        cli_out_of_memory();
    if (st == ORDO_ERR_ROW_TOO_LONG)
        cli_fail_plain("%s:%llu:1: a row longer than %zu bytes (--max-row-bytes): a quoted field "
                       "left open?",
                       name, (unsigned long long)e.line, max_row);
    if (e.line == 0 || e.column)
        cli_fail_plain("%s", cli_where(&e));
    cli_fail_plain("%s: encode: %s", name, e.message); /* a batch call failed: not expected */
}
