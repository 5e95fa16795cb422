/* Arrow C Data Interface input: hand-built arrays (sliced, with NULLs, of
 * every supported format) encode exactly as the row API does; unsupported
 * formats are errors; nothing is released. */
#include "ordo_test.h"

static int released;
static void no_release_schema(struct ArrowSchema *s) { (void)s; released++; }
static void no_release_array(struct ArrowArray *a) { (void)a; released++; }

static struct ArrowSchema schema_of(const char *format)
{
    return (struct ArrowSchema){.format = format, .release = no_release_schema};
}

static struct ArrowArray array_of(int64_t length, int64_t offset, int64_t null_count,
                                  int64_t n_buffers, const void **buffers)
{
    return (struct ArrowArray){.length = length, .null_count = null_count, .offset = offset,
                               .n_buffers = n_buffers, .buffers = buffers,
                               .release = no_release_array};
}

/* Encodes the struct batch and compares key i with want_hex[i]. */
static void expect_keys(const struct ArrowSchema *s, const struct ArrowArray *a,
                        const char *const *want_hex)
{
    ordo_column cols[8];
    size_t ncols = 0, nrows = 0, total = 0;
    assert_status(ordo_arrow_struct(s, a, cols, 8, &ncols, &nrows), ORDO_OK);
    assert_status(ordo_batch_size(ORDO_FORMAT_LEXKEY, cols, ncols, nrows, &total, NULL, NULL),
                  ORDO_OK);
    uint8_t out[1024];
    size_t offs[16];
    assert_status(ordo_batch_encode(ORDO_FORMAT_LEXKEY, cols, ncols, nrows, out, sizeof out, offs,
                                    NULL),
                  ORDO_OK);
    for (size_t i = 0; i < nrows; i++)
        assert_key_hex(out + offs[i], offs[i + 1] - offs[i], want_hex[i]);
}

static void struct_batch(void **state)
{
    (void)state;
    /* int64 with a NULL, utf8 with a NULL, bool, timestamp[us, UTC], date32,
     * fixed_size_binary(16), large binary; the struct is sliced to rows 1..3. */
    int64_t i64[4] = {10, -1, 0, 7};
    uint8_t i64_valid = 0x0b; /* row 2 NULL */
    const void *b_i64[2] = {&i64_valid, i64};
    int32_t s_off[5] = {0, 1, 3, 3, 6};
    const char *s_data = "abbccc";
    uint8_t s_valid = 0x0b; /* row 2 NULL */
    const void *b_s[3] = {&s_valid, s_off, s_data};
    uint8_t bits = 0x05; /* rows 0 and 2 true */
    const void *b_b[2] = {NULL, &bits};
    int64_t ts[4] = {0, 1700000000000000, -1, 1};
    const void *b_ts[2] = {NULL, ts};
    int32_t days[4] = {0, 1, -1, 19675};
    const void *b_d[2] = {NULL, days};
    uint8_t uu[64];
    for (int k = 0; k < 64; k++)
        uu[k] = (uint8_t)k;
    const void *b_u[2] = {NULL, uu};
    int64_t z_off[5] = {0, 0, 2, 2, 3};
    const uint8_t z_data[3] = {0x00, 0xff, 0x10};
    const void *b_z[3] = {NULL, z_off, z_data};

    struct ArrowSchema cs[7] = {schema_of("l"), schema_of("u"), schema_of("b"),
                                schema_of("tsu:UTC"), schema_of("tdD"), schema_of("w:16"),
                                schema_of("Z")};
    struct ArrowArray ca[7] = {array_of(4, 0, 1, 2, b_i64), array_of(4, 0, 1, 3, b_s),
                               array_of(4, 0, 0, 2, b_b),   array_of(4, 0, 0, 2, b_ts),
                               array_of(4, 0, 0, 2, b_d),   array_of(4, 0, 0, 2, b_u),
                               array_of(4, 0, 0, 3, b_z)};
    struct ArrowSchema *sp[7];
    struct ArrowArray *ap[7];
    for (int k = 0; k < 7; k++)
        sp[k] = &cs[k], ap[k] = &ca[k];
    struct ArrowSchema s = schema_of("+s");
    s.n_children = 7;
    s.children = sp;
    const void *b_struct[1] = {NULL};
    struct ArrowArray a = array_of(3, 1, 0, 1, b_struct);
    a.n_children = 7;
    a.children = ap;

    /* Rows 1, 2, 3 of every child, built with the row API. */
    static char want[3][512];
    const char *wp[3];
    for (int r = 1; r <= 3; r++) {
        uint8_t buf[256];
        size_t len;
        ordo_lexkey b;
        ordo_lexkey_init(&b, buf, sizeof buf, 0);
        if (r == 2)
            ordo_lexkey_nil(&b), ordo_lexkey_nil(&b);
        else
            ordo_lexkey_int64(&b, i64[r]), ordo_lexkey_string(&b, s_data + s_off[r], (size_t)(s_off[r + 1] - s_off[r]));
        ordo_lexkey_bool(&b, (bits >> r) & 1);
        ordo_lexkey_time(&b, ts[r] * 1000);
        ordo_lexkey_time(&b, (int64_t)days[r] * 86400 * 1000000000);
        ordo_lexkey_uuid(&b, uu + 16 * r);
        ordo_lexkey_bytes(&b, z_data + z_off[r], (size_t)(z_off[r + 1] - z_off[r]));
        assert_status(ordo_lexkey_finish(&b, &len), ORDO_OK);
        t_hex(buf, len, want[r - 1]);
        wp[r - 1] = want[r - 1];
    }
    released = 0;
    expect_keys(&s, &a, wp);
    assert_int_equal(released, 0);
}

static void every_format(void **state)
{
    (void)state;
    static const struct {
        const char *format;
        ordo_type type;
    } ok[] = {
        {"b", ORDO_TYPE_BOOL},      {"c", ORDO_TYPE_INT8},     {"C", ORDO_TYPE_UINT8},
        {"s", ORDO_TYPE_INT16},     {"S", ORDO_TYPE_UINT16},   {"i", ORDO_TYPE_INT32},
        {"I", ORDO_TYPE_UINT32},    {"l", ORDO_TYPE_INT64},    {"L", ORDO_TYPE_UINT64},
        {"f", ORDO_TYPE_FLOAT32},   {"g", ORDO_TYPE_FLOAT64},  {"w:16", ORDO_TYPE_UUID},
        {"tdD", ORDO_TYPE_TIME},    {"tdm", ORDO_TYPE_TIME},   {"tss:", ORDO_TYPE_TIME},
        {"tsm:Europe/Paris", ORDO_TYPE_TIME}, {"tsn:", ORDO_TYPE_TIME},
        {"tDs", ORDO_TYPE_DURATION}, {"tDn", ORDO_TYPE_DURATION}, {"n", ORDO_TYPE_NIL},
    };
    int64_t vals[2] = {1, 2};
    const void *bufs[2] = {NULL, vals};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        struct ArrowSchema s = schema_of(ok[i].format);
        /* the null type has no buffers */
        struct ArrowArray a = array_of(2, 0, 0, strcmp(ok[i].format, "n") ? 2 : 0, bufs);
        ordo_column c;
        size_t n = 0;
        assert_status(ordo_arrow_column(&s, &a, &c, &n), ORDO_OK);
        assert_int_equal(c.type, ok[i].type);
        assert_int_equal(n, 2);
    }
    /* Units are carried: date32 days, seconds for tss. */
    struct ArrowSchema s = schema_of("tss:UTC");
    struct ArrowArray a = array_of(2, 0, 0, 2, bufs);
    ordo_column c;
    assert_status(ordo_arrow_column(&s, &a, &c, NULL), ORDO_OK);
    assert_int_equal(c.time_unit, ORDO_UNIT_S);

    static const char *bad[] = {"e", "w:8", "+l", "+s", "d:10,2", "tts", "tsx:", "ts", "vu", "ttn"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct ArrowSchema bs = schema_of(bad[i]);
        assert_status(ordo_arrow_column(&bs, &a, &c, NULL), ORDO_ERR_BAD_TYPE);
    }
    /* Dictionaries, missing buffers, negative lengths. */
    struct ArrowSchema dict = schema_of("l"), values = schema_of("u");
    dict.dictionary = &values;
    assert_status(ordo_arrow_column(&dict, &a, &c, NULL), ORDO_ERR_BAD_TYPE);
    struct ArrowSchema ls = schema_of("l");
    const void *nobufs[2] = {NULL, NULL};
    struct ArrowArray na = array_of(2, 0, 0, 2, nobufs);
    assert_status(ordo_arrow_column(&ls, &na, &c, NULL), ORDO_ERR_NULL_ARG);
    struct ArrowArray nulls_without_bitmap = array_of(2, 0, 1, 2, bufs);
    assert_status(ordo_arrow_column(&ls, &nulls_without_bitmap, &c, NULL), ORDO_ERR_NULL_ARG);
    struct ArrowArray few = array_of(2, 0, 0, 1, bufs);
    assert_status(ordo_arrow_column(&ls, &few, &c, NULL), ORDO_ERR_NULL_ARG);
    struct ArrowArray neg = array_of(-1, 0, 0, 2, bufs);
    assert_status(ordo_arrow_column(&ls, &neg, &c, NULL), ORDO_ERR_INVALID_VALUE);
    assert_status(ordo_arrow_column(NULL, &a, &c, NULL), ORDO_ERR_NULL_ARG);
}

static void struct_errors(void **state)
{
    (void)state;
    int64_t vals[2] = {1, 2};
    const void *bufs[2] = {NULL, vals};
    struct ArrowSchema child_s = schema_of("l"), *csp = &child_s;
    struct ArrowArray child_a = array_of(2, 0, 0, 2, bufs), *cap = &child_a;
    struct ArrowSchema s = schema_of("+s");
    s.n_children = 1;
    s.children = &csp;
    struct ArrowArray a = array_of(2, 0, 0, 1, bufs);
    a.n_children = 1;
    a.children = &cap;
    ordo_column cols[2];
    size_t nc, nr;
    assert_status(ordo_arrow_struct(&s, &a, cols, 2, &nc, &nr), ORDO_OK);
    assert_status(ordo_arrow_struct(&s, &a, cols, 0, &nc, &nr), ORDO_ERR_DST_TOO_SMALL);
    a.null_count = 1;
    assert_status(ordo_arrow_struct(&s, &a, cols, 2, &nc, &nr), ORDO_ERR_BAD_TYPE);
    a.null_count = 0;
    a.length = 3; /* longer than its child */
    assert_status(ordo_arrow_struct(&s, &a, cols, 2, &nc, &nr), ORDO_ERR_INVALID_VALUE);
    a.length = 2;
    a.n_children = 2;
    assert_status(ordo_arrow_struct(&s, &a, cols, 2, &nc, &nr), ORDO_ERR_INVALID_VALUE);
    a.n_children = 1;
    struct ArrowSchema notstruct = schema_of("l");
    assert_status(ordo_arrow_struct(&notstruct, &a, cols, 2, &nc, &nr), ORDO_ERR_BAD_TYPE);
    assert_int_equal(released, 0);
}

/* Offsets and lengths are caller data: sums that overflow int64 (or whose
 * byte positions overflow size_t) are errors, never wrapped row numbers. */
static void huge_offsets(void **state)
{
    (void)state;
    int64_t vals[2] = {1, 2};
    const void *bufs[2] = {NULL, vals};
    struct ArrowSchema ls = schema_of("l");
    ordo_column c;
    size_t total = 0;
    struct ArrowArray a = array_of(1, INT64_MAX, 0, 2, bufs);
    assert_status(ordo_arrow_column(&ls, &a, &c, NULL), ORDO_ERR_SIZE_OVERFLOW);
    a = array_of(INT64_MAX, 1, 0, 2, bufs);
    assert_status(ordo_arrow_column(&ls, &a, &c, NULL), ORDO_ERR_SIZE_OVERFLOW);
    /* In range for int64, but row 0 is far past any buffer: the batch refuses it. */
    a = array_of(1, INT64_MAX - 1, 0, 2, bufs);
    size_t n = 0;
    assert_status(ordo_arrow_column(&ls, &a, &c, &n), ORDO_OK);
    for (int f = ORDO_FORMAT_LEXKEY; f <= ORDO_FORMAT_ORDERED; f++)
        assert_status(ordo_batch_size((ordo_format)f, &c, 1, n, &total, NULL, NULL),
                      ORDO_ERR_SIZE_OVERFLOW);
    /* A struct's offset plus a child's, and the struct's offset plus its length. */
    struct ArrowSchema child_s = schema_of("l"), *csp = &child_s;
    struct ArrowArray child_a = array_of(INT64_MAX, INT64_MAX, 0, 2, bufs), *cap = &child_a;
    struct ArrowSchema s = schema_of("+s");
    s.n_children = 1;
    s.children = &csp;
    struct ArrowArray st = array_of(1, 1, 0, 1, bufs);
    st.n_children = 1;
    st.children = &cap;
    ordo_column cols[1];
    size_t nc, nr;
    assert_status(ordo_arrow_struct(&s, &st, cols, 1, &nc, &nr), ORDO_ERR_SIZE_OVERFLOW);
    child_a.offset = 0;
    st.offset = INT64_MAX;
    assert_status(ordo_arrow_struct(&s, &st, cols, 1, &nc, &nr), ORDO_ERR_SIZE_OVERFLOW);
    /* Columns handed to the batch directly: offset + rows wraps size_t. */
    ordo_column big = {.type = ORDO_TYPE_INT64, .values = vals, .offset = SIZE_MAX - 1};
    ordo_column text = {.type = ORDO_TYPE_STRING, .values = "ab", .offsets = vals,
                        .offset_bits = 64, .offset = SIZE_MAX / 8};
    for (int f = ORDO_FORMAT_LEXKEY; f <= ORDO_FORMAT_ORDERED; f++) {
        assert_status(ordo_batch_size((ordo_format)f, &big, 1, 2, &total, NULL, NULL),
                      ORDO_ERR_SIZE_OVERFLOW);
        assert_status(ordo_batch_size((ordo_format)f, &text, 1, 1, &total, NULL, NULL),
                      ORDO_ERR_SIZE_OVERFLOW);
        uint8_t out[64];
        size_t offs[4];
        assert_status(ordo_batch_encode((ordo_format)f, &big, 1, 2, out, sizeof out, offs, NULL),
                      ORDO_ERR_SIZE_OVERFLOW);
    }
    assert_int_equal(released, 0);
}

/* ordo_arrow_check: every field a producer can get wrong is refused with
 * the status the header names and a message naming the field. */
static void check_says(const struct ArrowSchema *s, const struct ArrowArray *a,
                         ordo_status want, const char *words)
{
    ordo_error e;
    memset(&e, 0, sizeof e);
    assert_status(a ? ordo_arrow_check(s, a, &e) : ordo_arrow_check_schema(s, &e), want);
    if (want != ORDO_OK && !strstr(e.message, words))
        fail_msg("message '%s' lacks '%s'", e.message, words);
}

static void check_fields(void **state)
{
    (void)state;
    int64_t vals[4] = {0, 1, 2, 3};
    uint8_t valid = 0x0f;
    const void *b2[2] = {&valid, vals}, *b3[3] = {&valid, vals, "abc"}, *none3[3] = {0};
    struct ArrowSchema l = schema_of("l"), u = schema_of("u");
    struct ArrowArray a = array_of(2, 0, 0, 2, b2);
    check_says(&l, &a, ORDO_OK, "");
    /* the schema */
    check_says(NULL, &a, ORDO_ERR_NULL_ARG, "schema: is NULL");
    struct ArrowSchema bad = l;
    bad.release = NULL;
    check_says(&bad, &a, ORDO_ERR_INVALID_VALUE, "schema: is released");
    bad = l, bad.format = NULL;
    check_says(&bad, &a, ORDO_ERR_NULL_ARG, "format is NULL");
    static const char *unparsed[] = {"", "x", "ll", "w:", "w:0", "w:x", "d:", "d:10", "d:1,x",
                                     "d:1,2,7", "t", "tx", "tdx", "tsu", "tsx:", "+", "+x",
                                     "+w:", "+ud:a", "+us:1,", "vx", "zz"};
    for (size_t i = 0; i < sizeof unparsed / sizeof unparsed[0]; i++) {
        bad = l, bad.format = unparsed[i];
        check_says(&bad, NULL, ORDO_ERR_BAD_TYPE, "is not an Arrow format");
    }
    static const char *parsed[] = {"n", "e", "w:8", "d:10,2", "d:38,-3,256", "tts", "tsn:",
                                   "tsm:Europe/Paris", "tiM", "tDu", "vu", "vz", "+s"};
    for (size_t i = 0; i < sizeof parsed / sizeof parsed[0]; i++) {
        bad = l, bad.format = parsed[i];
        check_says(&bad, NULL, ORDO_OK, "");
    }
    bad = l, bad.n_children = -1;
    check_says(&bad, NULL, ORDO_ERR_INVALID_VALUE, "n_children is -1");
    bad = l, bad.n_children = 1; /* a primitive has none */
    struct ArrowSchema *kids[2] = {&l, NULL};
    bad.children = kids;
    check_says(&bad, NULL, ORDO_ERR_INVALID_VALUE, "its format has 0");
    struct ArrowSchema st = schema_of("+s");
    st.n_children = 2;
    check_says(&st, NULL, ORDO_ERR_NULL_ARG, "children is NULL");
    st.children = kids;
    check_says(&st, NULL, ORDO_ERR_NULL_ARG, "schema children[1]: is NULL");
    struct ArrowSchema nf = schema_of(NULL);
    kids[1] = &nf;
    check_says(&st, NULL, ORDO_ERR_NULL_ARG, "schema children[1]: format is NULL");
    struct ArrowSchema lst = schema_of("+l"); /* a list needs its one child */
    check_says(&lst, NULL, ORDO_ERR_INVALID_VALUE, "n_children is 0, its format has 1");
    /* a struct that holds itself */
    struct ArrowSchema self = schema_of("+s"), *selfp = &self;
    self.n_children = 1, self.children = &selfp;
    check_says(&self, NULL, ORDO_ERR_INVALID_VALUE, "levels deep");
    struct ArrowSchema dict = schema_of("u"), di = schema_of("i");
    dict.dictionary = &u; /* indices must be integers */
    check_says(&dict, NULL, ORDO_ERR_INVALID_VALUE, "indices must be integers");
    di.dictionary = &nf;
    check_says(&di, NULL, ORDO_ERR_NULL_ARG, "schema dictionary: format is NULL");

    /* the array */
    struct ArrowArray x = a;
    x.release = NULL;
    check_says(&l, &x, ORDO_ERR_INVALID_VALUE, "array: is released");
    x = a, x.length = -1;
    check_says(&l, &x, ORDO_ERR_INVALID_VALUE, "negative length");
    x = a, x.offset = -1;
    check_says(&l, &x, ORDO_ERR_INVALID_VALUE, "negative length");
    x = a, x.null_count = -2;
    check_says(&l, &x, ORDO_ERR_INVALID_VALUE, "null_count -2");
    x = a, x.null_count = 3;
    check_says(&l, &x, ORDO_ERR_INVALID_VALUE, "null_count 3 for 2 rows");
    x = a, x.offset = INT64_MAX;
    check_says(&l, &x, ORDO_ERR_SIZE_OVERFLOW, "overflows int64");
    x = a, x.n_buffers = 3;
    check_says(&l, &x, ORDO_ERR_INVALID_VALUE, "n_buffers is 3, its format has 2");
    x = a, x.n_buffers = -1;
    check_says(&l, &x, ORDO_ERR_INVALID_VALUE, "n_buffers is -1");
    x = array_of(2, 0, 0, 2, b2);
    check_says(&u, &x, ORDO_ERR_NULL_ARG, "n_buffers is 2, its format needs 3");
    x = a, x.buffers = NULL;
    check_says(&l, &x, ORDO_ERR_NULL_ARG, "buffers is NULL");
    x = array_of(0, 0, 0, 2, NULL); /* no rows: still a buffers array */
    check_says(&l, &x, ORDO_ERR_NULL_ARG, "buffers is NULL");
    x = array_of(2, 0, 0, 3, none3);
    check_says(&u, &x, ORDO_ERR_NULL_ARG, "buffers[1] is NULL");
    const void *no_data[3] = {NULL, vals, NULL};
    x = array_of(2, 0, 0, 3, no_data);
    check_says(&u, &x, ORDO_ERR_NULL_ARG, "buffers[2] is NULL");
    x = array_of(0, 0, 0, 3, none3); /* no rows: no buffers needed */
    check_says(&u, &x, ORDO_OK, "");
    x = array_of(2, 0, 1, 3, no_data);
    check_says(&u, &x, ORDO_ERR_NULL_ARG, "validity buffer is NULL");
    x = array_of(2, 0, 0, 3, b3);
    check_says(&u, &x, ORDO_OK, "");
    struct ArrowSchema nul = schema_of("n");
    x = array_of(2, 0, 2, 0, NULL);
    check_says(&nul, &x, ORDO_OK, "");
    x = array_of(2, 0, 2, 2, b2);
    check_says(&nul, &x, ORDO_ERR_INVALID_VALUE, "n_buffers is 2");
    struct ArrowSchema view = schema_of("vu");
    const void *vb[4] = {NULL, vals, NULL, vals};
    x = array_of(2, 0, 0, 2, vb);
    check_says(&view, &x, ORDO_ERR_NULL_ARG, "needs 3");
    x = array_of(2, 0, 0, 4, vb);
    check_says(&view, &x, ORDO_ERR_NULL_ARG, "a view's data");
    /* children */
    struct ArrowSchema s2 = schema_of("+s"), *sk[2] = {&l, &u};
    s2.n_children = 2, s2.children = sk;
    const void *sb[1] = {NULL};
    struct ArrowArray c0 = array_of(2, 0, 0, 2, b2), c1 = array_of(2, 0, 0, 3, b3);
    struct ArrowArray *ak[2] = {&c0, &c1};
    struct ArrowArray sa = array_of(2, 0, 0, 1, sb);
    sa.n_children = 2, sa.children = ak;
    check_says(&s2, &sa, ORDO_OK, "");
    x = sa, x.n_children = 1;
    check_says(&s2, &x, ORDO_ERR_INVALID_VALUE, "n_children is 1, its schema's 2");
    x = sa, x.children = NULL;
    check_says(&s2, &x, ORDO_ERR_NULL_ARG, "children is NULL");
    ak[1] = NULL;
    check_says(&s2, &sa, ORDO_ERR_NULL_ARG, "array children[1]: is NULL");
    struct ArrowArray short1 = array_of(1, 0, 0, 3, b3);
    ak[1] = &short1;
    check_says(&s2, &sa, ORDO_ERR_INVALID_VALUE, "has 1 rows, its struct covers 2");
    struct ArrowArray nb = array_of(2, 0, 0, 1, b3);
    ak[1] = &nb;
    check_says(&s2, &sa, ORDO_ERR_NULL_ARG, "array children[1]: n_buffers is 1");
    ak[1] = &c1;
    x = sa, x.offset = INT64_MAX - 1;
    check_says(&s2, &x, ORDO_ERR_SIZE_OVERFLOW, "overflows int64");
    /* dictionaries on one side only */
    struct ArrowSchema ds = schema_of("i");
    ds.dictionary = &u;
    x = a;
    check_says(&ds, &x, ORDO_ERR_INVALID_VALUE, "dictionary is NULL");
    x.dictionary = &c1;
    check_says(&l, &x, ORDO_ERR_INVALID_VALUE, "has a dictionary");
    check_says(&ds, &x, ORDO_OK, "");
}

/* A stream whose callbacks fail or lie. */
static int stream_rc, stream_batches;
static struct ArrowArray stream_array;
static const char *stream_error = "disk on fire";
static int s_get_schema(struct ArrowArrayStream *st, struct ArrowSchema *out)
{
    (void)st;
    if (stream_rc)
        return stream_rc;
    *out = schema_of("l");
    return 0;
}
static int s_get_next(struct ArrowArrayStream *st, struct ArrowArray *out)
{
    (void)st;
    if (stream_rc)
        return stream_rc;
    if (stream_batches-- > 0)
        *out = stream_array;
    return 0;
}
static const char *s_last_error(struct ArrowArrayStream *st)
{
    (void)st;
    return stream_error;
}
static void s_release(struct ArrowArrayStream *st) { st->release = NULL; }

static void streams(void **state)
{
    (void)state;
    struct ArrowArrayStream st = {s_get_schema, s_get_next, s_last_error, s_release, NULL};
    struct ArrowSchema sch;
    struct ArrowArray arr;
    ordo_error e;
    int64_t vals[2] = {1, 2};
    const void *bufs[2] = {NULL, vals};
    stream_rc = 0;
    assert_status(ordo_arrow_stream_schema(&st, &sch, &e), ORDO_OK);
    stream_array = array_of(2, 0, 0, 2, bufs);
    stream_batches = 1;
    released = 0;
    assert_status(ordo_arrow_stream_next(&st, &sch, &arr, &e), ORDO_OK);
    assert_non_null(arr.release);
    assert_status(ordo_arrow_stream_next(&st, &sch, &arr, &e), ORDO_OK);
    assert_null(arr.release); /* the end */
    /* a malformed batch is released and refused */
    stream_array = array_of(2, 0, 0, 1, bufs);
    stream_batches = 1;
    assert_status(ordo_arrow_stream_next(&st, &sch, &arr, &e), ORDO_ERR_NULL_ARG);
    assert_null(arr.release);
    assert_int_equal(released, 1);
    /* failing callbacks: the producer's message, or its error number */
    stream_rc = 5;
    assert_status(ordo_arrow_stream_schema(&st, &sch, &e), ORDO_ERR_IO);
    assert_string_equal(e.message, "Arrow stream: get_schema failed: disk on fire");
    stream_error = NULL;
    assert_status(ordo_arrow_stream_next(&st, &sch, &arr, &e), ORDO_ERR_IO);
    assert_string_equal(e.message, "Arrow stream: get_next failed (error 5, no message)");
    /* missing callbacks, a consumed stream */
    struct ArrowArrayStream bad = st;
    bad.get_last_error = NULL;
    assert_status(ordo_arrow_stream_schema(&bad, &sch, &e), ORDO_ERR_NULL_ARG);
    assert_string_equal(e.message, "Arrow stream: get_last_error is NULL");
    bad = st, bad.get_next = NULL;
    assert_status(ordo_arrow_stream_next(&bad, &sch, &arr, &e), ORDO_ERR_NULL_ARG);
    bad = st, bad.get_schema = NULL;
    assert_status(ordo_arrow_stream_schema(&bad, &sch, &e), ORDO_ERR_NULL_ARG);
    bad = st, bad.release = NULL;
    assert_status(ordo_arrow_stream_schema(&bad, &sch, &e), ORDO_ERR_INVALID_VALUE);
    assert_status(ordo_arrow_stream_schema(NULL, &sch, &e), ORDO_ERR_NULL_ARG);
    stream_rc = 0;
    stream_error = "disk on fire";
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(struct_batch),
        cmocka_unit_test(every_format),
        cmocka_unit_test(struct_errors),
        cmocka_unit_test(huge_offsets),
        cmocka_unit_test(check_fields),
        cmocka_unit_test(streams),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
