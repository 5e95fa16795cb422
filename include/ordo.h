/*
 * ordo: typed values to order-preserving byte keys.
 *
 * Keys made by ordo compare with plain memcmp (shorter key first on a tie)
 * in the order of the values they encode. SPEC.md is normative for bytes.
 *
 * Conventions for every function below:
 *  - The library never prints, never aborts and never allocates behind the
 *    caller's back. Every failure is a returned ordo_status.
 *  - A function that writes into caller memory (dst, cap) never writes past
 *    cap and writes nothing at all when it fails.
 *  - A pointer may be NULL only when its length is 0.
 */
#ifndef ORDO_H
#define ORDO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(ORDO_STATIC_DEFINE)
#  define ORDO_API
#elif defined(_WIN32)
#  ifdef ORDO_BUILDING
#    define ORDO_API __declspec(dllexport)
#  else
#    define ORDO_API __declspec(dllimport)
#  endif
#else
#  define ORDO_API __attribute__((visibility("default")))
#endif

/* ORDO_VERSION_MAJOR, _MINOR, _PATCH and _STRING (the version's one
 * place, which the build reads too). */
#include "ordo_version.h"

/* The library's version string, equal to ORDO_VERSION_STRING of the build. */
ORDO_API const char *ordo_version(void);

/* ---------------------------------------------------------------- status */

/* Values are pinned: they never change meaning. New codes take new numbers.
 * Rely only on == ORDO_OK or != ORDO_OK, never on arithmetic over them. */
typedef enum ordo_status {
    ORDO_OK = 0,

    /* caller mistakes */
    ORDO_ERR_NULL_ARG = 10,      /* a required pointer is NULL */
    ORDO_ERR_INVALID_ARG = 11,   /* unknown flag bits, bad enum value, bad option */
    ORDO_ERR_BAD_STATE = 12,     /* a part added after --first/--last sealed the key */

    /* values */
    ORDO_ERR_BAD_TYPE = 20,      /* the type is unknown or the format cannot hold it */
    ORDO_ERR_INVALID_VALUE = 21, /* the text of a value does not parse */
    ORDO_ERR_OUT_OF_RANGE = 22,  /* the value parses but does not fit its type */
    ORDO_ERR_NULL_VALUE = 23,    /* a NULL where the format has no room for one (packed) */

    /* sizes */
    ORDO_ERR_DST_TOO_SMALL = 30, /* the destination's capacity is too small; nothing written */
    ORDO_ERR_SIZE_OVERFLOW = 31, /* a size computation would overflow size_t */

    /* key text forms and key structure */
    ORDO_ERR_BAD_HEX_CHAR = 40,  /* a character that is not a hex digit */
    ORDO_ERR_ODD_HEX_LENGTH = 41,/* an odd number of hex digits */
    ORDO_ERR_BAD_JSON = 42,      /* not a JSON string and not null */
    ORDO_ERR_NO_PARTS = 43,      /* a key needs at least one part */
    ORDO_ERR_NO_SEPARATOR = 44,  /* a primary key without a 00 byte */
    ORDO_ERR_EMPTY_HALF = 45,    /* a primary key with an empty partition or row key */
    ORDO_ERR_MALFORMED_KEY = 50, /* a key that cannot have been produced by the format */
    ORDO_ERR_INVALID_ORDER = 51, /* an order that is not one of the four ordo_order values */
    ORDO_ERR_NO_BOUND = 52,      /* a prefix (empty or all ff) with no finite upper bound */
    ORDO_ERR_AMBIGUOUS_KEY = 53, /* a LexKey part that may be nil (00) or a value: cannot tell */

    /* implementation selection */
    ORDO_ERR_UNKNOWN_IMPL = 60,     /* ORDO_IMPL names no implementation */
    ORDO_ERR_UNSUPPORTED_IMPL = 61, /* the implementation is not built or this CPU lacks it */

    /* the machine, files and stores (the ingest and load libraries) */
    ORDO_ERR_OUT_OF_MEMORY = 70,    /* an allocation failed; nothing half-done is left */
    ORDO_ERR_IO = 71,               /* a file or store operation failed (ordo_error says which) */
    ORDO_ERR_NO_ROOM = 72,          /* too little disk space or too low a file-size limit */
    ORDO_ERR_UNSAFE_PATH = 73,      /* a link, FIFO or foreign file where ordo would write, or an
                                       output that is an input: refused, nothing touched */
    ORDO_ERR_INTERRUPTED = 74,      /* the caller's cancel flag was set */
    ORDO_ERR_NO_STORE = 75,         /* built without a store (RocksDB) */

    /* loads and tables */
    ORDO_ERR_DUPLICATE_KEY = 80,    /* two rows with the same key under the "error" policy */
    ORDO_ERR_UNSORTED = 81,         /* keys given out of order to a writer of sorted files */
    ORDO_ERR_TABLE_EXISTS = 82,     /* the tag (or the store) already holds a table or keys */
    ORDO_ERR_NO_TABLE = 83,         /* no table under that tag */
    ORDO_ERR_RESERVED_KEY = 84,     /* an untagged key starting with ff, kept for system keys */
    ORDO_ERR_OVERLAP = 85,          /* SST files whose key ranges overlap, in one ingestion */
    ORDO_ERR_BAD_INPUT = 86,        /* a malformed input row or file (ordo_error says where) */

    /* ingest */
    ORDO_ERR_ROW_TOO_LONG = 90,     /* an input row over the row size limit (a quoted field
                                       left open?); ordo_error says where it starts */
    ORDO_ERR_BAD_HEADER = 91,       /* the input's header row does not name the schema's
                                       columns (ordo_error says where) */

    /* collations */
    ORDO_ERR_UNKNOWN_COLLATION = 100, /* no ICU collation or libc locale by that name */
    ORDO_ERR_INVALID_UTF8 = 101,      /* collated text that is not UTF-8 (or holds 00) */
    ORDO_ERR_NO_ICU = 102,            /* an ICU collation in a build without ICU */
    ORDO_ERR_COLLATION_VERSION = 103, /* the collation's version differs from the one the
                                         keys were made with */
    ORDO_ERR_UNSUPPORTED_COLLATION = 104 /* a libc locale whose strcoll order ordo's keys
                                            cannot reproduce (use an ICU collation) */
} ordo_status;

/* Where and why a call that reads input failed: the libraries above the
 * core (ordo_ingest.h, ordo_load.h) fill one when the caller passes it.
 * file is borrowed from the caller (the name it gave), or NULL; line and
 * column are 1-based, 0 when unknown; message says what went wrong, in
 * words, without the position (the caller adds "FILE:LINE:COLUMN: ").
 * option: when a call refused one of its options rather than its input,
 * that option's name as the call's options struct spells it ("schema",
 * "key", "format", "tag", "memory", "sst_size", ...; a static string), so
 * that a front end can word or classify the refusal without reading the
 * message; NULL otherwise. */
typedef struct ordo_error {
    ordo_status status;
    const char *file;
    uint64_t line, column;
    char message[1024];
    const char *option;
} ordo_error;

/* A constant name such as "ORDO_ERR_DST_TOO_SMALL"; "ORDO_ERR_UNKNOWN" for a
 * value that is not a status. */
ORDO_API const char *ordo_status_name(ordo_status s);
/* A short constant English description, for messages. */
ORDO_API const char *ordo_status_message(ordo_status s);

/* ----------------------------------------------------------------- types */

/* Value types. Values are pinned. */
typedef enum ordo_type {
    ORDO_TYPE_STRING = 1,
    ORDO_TYPE_BYTES = 2,
    ORDO_TYPE_UUID = 3,
    ORDO_TYPE_BOOL = 4,
    ORDO_TYPE_INT8 = 5,
    ORDO_TYPE_INT16 = 6,
    ORDO_TYPE_INT32 = 7,
    ORDO_TYPE_INT64 = 8,
    ORDO_TYPE_INT = 9,      /* the plain integer: always 64 bits */
    ORDO_TYPE_UINT8 = 10,
    ORDO_TYPE_UINT16 = 11,
    ORDO_TYPE_UINT32 = 12,
    ORDO_TYPE_UINT64 = 13,
    ORDO_TYPE_FLOAT32 = 14,
    ORDO_TYPE_FLOAT64 = 15,
    ORDO_TYPE_TIME = 16,    /* Unix time in nanoseconds, int64 */
    ORDO_TYPE_DURATION = 17,/* nanoseconds, int64 */
    ORDO_TYPE_NIL = 18,
    ORDO_TYPE_END = 19,
    /* the ordered format's further types */
    ORDO_TYPE_INT128 = 20,      /* hugeint: high int64, low uint64 */
    ORDO_TYPE_DATE = 21,        /* int32 days since 2000-01-01 */
    ORDO_TYPE_TIME_OF_DAY = 22, /* int64 microseconds since midnight (PostgreSQL time) */
    ORDO_TYPE_TIMESTAMP = 23,   /* int64 microseconds since 2000-01-01 00:00 */
    ORDO_TYPE_TIMESTAMPTZ = 24, /* int64 microseconds since 2000-01-01 00:00 UTC */
    ORDO_TYPE_INTERVAL = 25,    /* months, days, microseconds */
    ORDO_TYPE_ENUM = 26,        /* uint32 sort rank */
    ORDO_TYPE_PG_LSN = 27,      /* uint64 */
    ORDO_TYPE_MACADDR = 28,     /* 6 bytes */
    ORDO_TYPE_MACADDR8 = 29,    /* 8 bytes */
    ORDO_TYPE_NUMERIC = 30,     /* decimal text of any size, NaN, +-Infinity */
    ORDO_TYPE_TIMETZ = 31,      /* ordo_timetz: local time and UTC offset */
    ORDO_TYPE_INET = 32,        /* ordo_inet: an address, host bits kept */
    ORDO_TYPE_CIDR = 33,        /* ordo_inet: a network, host bits clear */
    ORDO_TYPE_BIT = 34,         /* bit string as '0'/'1' digits (bit, bit varying) */
    ORDO_TYPE_ENCODED = 35      /* batches: one ordered field already encoded, copied as it is */
} ordo_type;

/* The lowercase name ("int64", "float32", ...) or NULL for a non-type. */
ORDO_API const char *ordo_type_name(ordo_type t);

/* A collation (ordo_collator_open, below). */
typedef struct ordo_collator ordo_collator;

/* ---------------------------------------------------- LexKey row builder */

/* Builder flags. */
#define ORDO_LEXKEY_LEGACY 1u /* native widths (lexkey-legacy) instead of canonical 64-bit */

/* Upper bound of the size of a LexKey of nparts parts whose string and bytes
 * parts hold var_bytes bytes in all, separators and a first/last suffix
 * included. No overflow check: use ordo_lexkey_bound() for untrusted sizes. */
#define ORDO_LEXKEY_BOUND(nparts, var_bytes) ((size_t)(var_bytes) + 17u * (size_t)(nparts))

/* The builder writes one key into caller memory. It never allocates or
 * grows. Each part is written whole (with its 00 separator) or not at all.
 * The first error sticks: later calls return it and change nothing. Fields
 * are private; the struct is public only so that it can live on the stack. */
typedef struct ordo_lexkey {
    uint8_t *priv_buf;
    size_t priv_cap;
    size_t priv_len;
    size_t priv_parts;
    unsigned priv_flags;
    int priv_sealed;
    ordo_status priv_err;
} ordo_lexkey;

/* Starts a key in buf[0..cap). flags: 0 (canonical, `lexkey`) or
 * ORDO_LEXKEY_LEGACY. A bad flag or a NULL buf with cap > 0 becomes the
 * builder's sticky error. b must not be NULL. */
ORDO_API void ordo_lexkey_init(ordo_lexkey *b, void *buf, size_t cap, unsigned flags);

/* Parts. Each returns the builder's status after the call. */
ORDO_API ordo_status ordo_lexkey_string(ordo_lexkey *b, const char *s, size_t n);
ORDO_API ordo_status ordo_lexkey_bytes(ordo_lexkey *b, const void *p, size_t n);
ORDO_API ordo_status ordo_lexkey_uuid(ordo_lexkey *b, const uint8_t uuid[16]);
ORDO_API ordo_status ordo_lexkey_bool(ordo_lexkey *b, bool v);
ORDO_API ordo_status ordo_lexkey_int8(ordo_lexkey *b, int8_t v);
ORDO_API ordo_status ordo_lexkey_int16(ordo_lexkey *b, int16_t v);
ORDO_API ordo_status ordo_lexkey_int32(ordo_lexkey *b, int32_t v);
ORDO_API ordo_status ordo_lexkey_int64(ordo_lexkey *b, int64_t v);
ORDO_API ordo_status ordo_lexkey_int(ordo_lexkey *b, int64_t v);
ORDO_API ordo_status ordo_lexkey_uint8(ordo_lexkey *b, uint8_t v);
ORDO_API ordo_status ordo_lexkey_uint16(ordo_lexkey *b, uint16_t v);
ORDO_API ordo_status ordo_lexkey_uint32(ordo_lexkey *b, uint32_t v);
ORDO_API ordo_status ordo_lexkey_uint64(ordo_lexkey *b, uint64_t v);
ORDO_API ordo_status ordo_lexkey_float32(ordo_lexkey *b, float v);
ORDO_API ordo_status ordo_lexkey_float64(ordo_lexkey *b, double v);
ORDO_API ordo_status ordo_lexkey_time(ordo_lexkey *b, int64_t unix_ns);
ORDO_API ordo_status ordo_lexkey_duration(ordo_lexkey *b, int64_t ns);
ORDO_API ordo_status ordo_lexkey_nil(ordo_lexkey *b);
ORDO_API ordo_status ordo_lexkey_end(ordo_lexkey *b);

/* EncodeFirst / EncodeLast: append the 00 / ff suffix and seal the key (a
 * later part is ORDO_ERR_BAD_STATE). Zero parts is ORDO_ERR_NO_PARTS. */
ORDO_API ordo_status ordo_lexkey_first(ordo_lexkey *b);
ORDO_API ordo_status ordo_lexkey_last(ordo_lexkey *b);

/* The key so far. finish() returns the sticky error, or ORDO_ERR_NO_PARTS
 * for a key without parts, else ORDO_OK; *len (if not NULL) receives the
 * length of the valid bytes written, also on error. */
ORDO_API ordo_status ordo_lexkey_finish(const ordo_lexkey *b, size_t *len);
ORDO_API size_t ordo_lexkey_length(const ordo_lexkey *b);

/* Exact size of one part's encoding, separator excluded. len is the byte
 * length for STRING and BYTES and is ignored otherwise. */
ORDO_API ordo_status ordo_lexkey_part_size(ordo_type t, size_t len, unsigned flags, size_t *size);
/* ORDO_LEXKEY_BOUND with an overflow check (ORDO_ERR_SIZE_OVERFLOW). */
ORDO_API ordo_status ordo_lexkey_bound(size_t nparts, size_t var_bytes, size_t *bound);

/* ---------------------------------------------------- LexKey reader */

/* Reads a LexKey key back part by part, given the types of its nparts
 * parts (SPEC.md §5.1). LexKey escapes nothing, so a key splits only where
 * its types make the split unambiguous: a fixed-width part must be followed
 * by the end of the key (the last part) or by the 00 separator; a string or
 * bytes part runs to the next 00 (so it must hold no 00 byte), or, when it
 * is the last part, to the end of the key. The reader borrows the key and
 * never reads past it. Errors are sticky: ORDO_ERR_MALFORMED_KEY for bytes
 * that do not split by the types (a missing separator, a wrong width, a
 * value the part type cannot hold, bytes left after the last part),
 * ORDO_ERR_BAD_STATE for a read past the nparts-th part, ORDO_ERR_BAD_TYPE
 * for a type the read does not take. The only error that is not sticky is
 * ORDO_ERR_AMBIGUOUS_KEY (below). Fields are private. */
typedef struct ordo_lexkey_reader {
    const uint8_t *priv_key;
    size_t priv_len, priv_pos;
    size_t priv_parts, priv_done;
    unsigned priv_flags;
    ordo_status priv_err;
} ordo_lexkey_reader;

/* flags: 0 (`lexkey`) or ORDO_LEXKEY_LEGACY, as the key was built; nparts
 * >= 1 parts. A bad flag, nparts 0 or a NULL key with len > 0 becomes the
 * sticky error (ORDO_ERR_INVALID_ARG, ORDO_ERR_NO_PARTS, ORDO_ERR_NULL_ARG). */
ORDO_API void ordo_lexkey_reader_init(ordo_lexkey_reader *r, const void *key, size_t len,
                                      unsigned flags, size_t nparts);
/* Each read takes the next part. is_null: NULL when the part cannot be nil
 * (the caller knows); else it receives whether the part is the nil byte 00
 * (a NULL of the batch and CSV encoders; the value is then zero). A part
 * that both a nil and a value of the type would explain (00 where false,
 * an empty string or a value starting 00 00 may also stand) is
 * ORDO_ERR_AMBIGUOUS_KEY: nothing is consumed, and the caller may read it
 * again knowing more (is_null NULL, or ordo_lexkey_read_nil).
 * Integers: INT8 .. INT64, INT, TIME, DURATION (read_int) and UINT8 ..
 * UINT64 (read_uint) at the format's width; in `lexkey` a narrow type's
 * 8 bytes must hold a value of that type. */
ORDO_API ordo_status ordo_lexkey_read_int(ordo_lexkey_reader *r, ordo_type t, int64_t *v,
                                          bool *is_null);
ORDO_API ordo_status ordo_lexkey_read_uint(ordo_lexkey_reader *r, ordo_type t, uint64_t *v,
                                           bool *is_null);
/* The NaN word gives a quiet NaN (its one colliding subnormal reads as NaN,
 * SPEC.md §4); 00...00 gives -0.0; words the float rule never writes are
 * malformed. In `lexkey` a float32 part's double must be a float. */
ORDO_API ordo_status ordo_lexkey_read_float64(ordo_lexkey_reader *r, double *v, bool *is_null);
ORDO_API ordo_status ordo_lexkey_read_float32(ordo_lexkey_reader *r, float *v, bool *is_null);
ORDO_API ordo_status ordo_lexkey_read_bool(ordo_lexkey_reader *r, bool *v, bool *is_null);
ORDO_API ordo_status ordo_lexkey_read_uuid(ordo_lexkey_reader *r, uint8_t uuid[16],
                                           bool *is_null);
/* A string or bytes part, borrowed: *p points into the key (NULL when *n is
 * 0). */
ORDO_API ordo_status ordo_lexkey_read_bytes(ordo_lexkey_reader *r, const uint8_t **p, size_t *n,
                                            bool *is_null);
/* A nil part (00) and an end sentinel part (ff). */
ORDO_API ordo_status ordo_lexkey_read_nil(ordo_lexkey_reader *r);
ORDO_API ordo_status ordo_lexkey_read_end(ordo_lexkey_reader *r);
/* Bytes not read yet (0 after the last part), and the sticky error. */
ORDO_API size_t ordo_lexkey_reader_remaining(const ordo_lexkey_reader *r);
ORDO_API ordo_status ordo_lexkey_reader_status(const ordo_lexkey_reader *r);

/* --------------------------------------------- primary and range keys */

/* partition 00 row. Both halves must be non-empty (ORDO_ERR_EMPTY_HALF). */
ORDO_API ordo_status ordo_pk_encode(const void *partition, size_t plen, const void *row,
                                    size_t rlen, void *dst, size_t cap, size_t *out_len);
/* Splits at the first 00: partition = key[0 .. *plen), row = key[*row_off .. len).
 * ORDO_ERR_NO_SEPARATOR when there is no 00 (the empty key included),
 * ORDO_ERR_EMPTY_HALF when either side is empty. Reads only; copies nothing. */
ORDO_API ordo_status ordo_pk_split(const void *key, size_t len, size_t *plen, size_t *row_off);

/* Range bounds of partition P with optional row bounds; [lower, upper).
 * lower = P 00 L (P 00 when L is empty); upper = P 00 U ff (P ff when U is
 * empty). An empty bound is the same as no bound; P may be empty. */
ORDO_API ordo_status ordo_range_lower(const void *partition, size_t plen, const void *lo,
                                      size_t lolen, void *dst, size_t cap, size_t *out_len);
ORDO_API ordo_status ordo_range_upper(const void *partition, size_t plen, const void *up,
                                      size_t uplen, void *dst, size_t cap, size_t *out_len);

/* memcmp order, shorter first on a common prefix: -1, 0 or 1. */
ORDO_API int ordo_compare(const void *a, size_t alen, const void *b, size_t blen);

/* ------------------------------------------------------ hex and JSON */

/* Lowercase hex, two digits per byte, no terminator written. cap >= 2*n. */
ORDO_API ordo_status ordo_hex_encode(const void *key, size_t n, char *dst, size_t cap,
                                     size_t *out_len);
/* Either case in. ORDO_ERR_BAD_HEX_CHAR (then *err_pos, if not NULL, is the
 * offset of the first bad character; "0x", spaces and newlines are bad) is
 * reported before ORDO_ERR_ODD_HEX_LENGTH. The empty text is the empty key. */
ORDO_API ordo_status ordo_hex_decode(const char *src, size_t n, void *dst, size_t cap,
                                     size_t *out_len, size_t *err_pos);
/* A JSON string holding the lowercase hex: "\"68656c6c6f\"". cap >= 2*n+2. */
ORDO_API ordo_status ordo_json_encode(const void *key, size_t n, char *dst, size_t cap,
                                      size_t *out_len);
/* JSON null or "" give the empty key; a JSON string of hex gives its bytes;
 * surrounding JSON whitespace is allowed. Anything else, JSON escapes and
 * non-hex characters inside the quotes included, is ORDO_ERR_BAD_JSON; an
 * odd number of digits is ORDO_ERR_ODD_HEX_LENGTH. */
ORDO_API ordo_status ordo_json_decode(const char *src, size_t n, void *dst, size_t cap,
                                      size_t *out_len);

/* ---------------------------------------------- the ordered format */

/* An inet or cidr value (and an INET/CIDR column's element): family 4 or
 * 6, prefix length, and the address in network order (4 or 16 bytes). */
typedef struct ordo_inet {
    uint8_t family;
    uint8_t bits;
    uint8_t addr[16];
} ordo_inet;

/* Per-field order. Values are pinned (they are Schottky's). */
typedef enum ordo_order {
    ORDO_ASC_NULLS_FIRST = 0,
    ORDO_ASC_NULLS_LAST = 1, /* SQL's ASC */
    ORDO_DESC_NULLS_FIRST = 2, /* SQL's DESC */
    ORDO_DESC_NULLS_LAST = 3
} ordo_order;

/* PostgreSQL's bounds, in the ordered format's units. */
#define ORDO_DATE_MIN INT32_C(-2451545)                        /* 4714-11-24 BC */
#define ORDO_DATE_END INT32_C(2145031949)                      /* 5874898-01-01, excluded */
#define ORDO_TIMESTAMP_MIN INT64_C(-211813488000000000)        /* 4714-11-24 00:00 BC */
#define ORDO_TIMESTAMP_END INT64_C(9223371331200000000)        /* 294277-01-01, excluded */
#define ORDO_TIME_MAX INT64_C(86400000000)                     /* 24:00:00, included */
/* The infinities of date and timestamp(tz) are the type's extremes. */
#define ORDO_DATE_NEG_INFINITY INT32_MIN
#define ORDO_DATE_INFINITY INT32_MAX
#define ORDO_TIMESTAMP_NEG_INFINITY INT64_MIN
#define ORDO_TIMESTAMP_INFINITY INT64_MAX

/* Upper bound of an ordered key of nfields fields (a record's begin counts
 * as one) whose variable fields hold var_bytes in all: the bytes of bytes
 * and text, the text of numeric, the digits of bit strings. Each field is
 * at most 2 * its variable bytes + 53 (an IPv6 inet, the largest fixed
 * field, is 53). No overflow check: use ordo_key_bound() for untrusted
 * sizes. Add the length of any prefix kept by ordo_key_init. */
#define ORDO_KEY_BOUND(nfields, var_bytes) (2u * (size_t)(var_bytes) + 53u * (size_t)(nfields))

/* At most this many ranges and arrays are open at once in a key (an array
 * of records holding arrays of ranges is 3); ORDO_ERR_BAD_STATE beyond. */
#define ORDO_NEST_MAX_DEPTH 8

/* An ordered key under construction in caller memory: the same contract as
 * the LexKey builder (whole fields or nothing, sticky first error, no
 * allocation). Fields are private. */
typedef struct ordo_key {
    uint8_t *priv_buf;
    size_t priv_cap;
    size_t priv_len;
    ordo_status priv_err;
    uint32_t priv_flip; /* records: bit d set when depth d runs descending */
    uint32_t priv_depth;
    uint32_t priv_packed; /* the packed format: no presence bytes */
    /* the innermost open range or array (see ordo_key_range_begin) */
    uint32_t priv_nest;  /* 0 none, 1 range, 2 array */
    uint32_t priv_nest_flags, priv_nest_order;
    ordo_type priv_nest_sub;
    size_t priv_nest_start, priv_nest_mid, priv_nest_count;
    uint32_t priv_nest_rdepth; /* the record depth it was opened at */
    uint32_t priv_nest_level;  /* how many open ones enclose it */
    struct {
        uint32_t nest, flags, order, rdepth;
        ordo_type sub;
        size_t start, mid, count;
    } priv_nest_outer[ORDO_NEST_MAX_DEPTH - 1];
} ordo_key;

/* Starts a key in buf[0..cap) after `len` bytes already there (a table tag,
 * say), which are kept. len > cap is ORDO_ERR_INVALID_ARG (sticky). */
ORDO_API void ordo_key_init(ordo_key *k, void *buf, size_t cap, size_t len);
/* The same for a key in the packed format (SPEC.md §16): the same calls
 * write each field without its presence byte, so every field sits at a
 * fixed offset. Only fixed-width fields: ordo_key_null is
 * ORDO_ERR_NULL_VALUE; bytes, text, numeric, bit strings, inet, cidr and
 * records are ORDO_ERR_BAD_TYPE once their value checks out (all sticky).
 * The order's ASC/DESC applies, its NULLS FIRST/LAST does not. */
ORDO_API void ordo_key_init_packed(ordo_key *k, void *buf, size_t cap, size_t len);
/* A packed field's width (its offset in the key is the sum of the widths
 * before it); ORDO_ERR_BAD_TYPE for a type the packed format cannot hold. */
ORDO_API ordo_status ordo_key_packed_size(ordo_type t, size_t *size);
/* Every field takes its order; a bad order is ORDO_ERR_INVALID_ORDER. A
 * NULL is a field of its own: the presence byte alone. */
ORDO_API ordo_status ordo_key_null(ordo_key *k, ordo_order o);
ORDO_API ordo_status ordo_key_bool(ordo_key *k, ordo_order o, bool v);
ORDO_API ordo_status ordo_key_int8(ordo_key *k, ordo_order o, int8_t v);
ORDO_API ordo_status ordo_key_int16(ordo_key *k, ordo_order o, int16_t v);
ORDO_API ordo_status ordo_key_int32(ordo_key *k, ordo_order o, int32_t v);
ORDO_API ordo_status ordo_key_int64(ordo_key *k, ordo_order o, int64_t v);
ORDO_API ordo_status ordo_key_int128(ordo_key *k, ordo_order o, int64_t hi, uint64_t lo);
ORDO_API ordo_status ordo_key_uint8(ordo_key *k, ordo_order o, uint8_t v);
ORDO_API ordo_status ordo_key_uint16(ordo_key *k, ordo_order o, uint16_t v);
ORDO_API ordo_status ordo_key_uint32(ordo_key *k, ordo_order o, uint32_t v);
ORDO_API ordo_status ordo_key_uint64(ordo_key *k, ordo_order o, uint64_t v);
/* NaN (any) above +Infinity, all NaNs equal; -0 equal to 0. */
ORDO_API ordo_status ordo_key_float32(ordo_key *k, ordo_order o, float v);
ORDO_API ordo_status ordo_key_float64(ordo_key *k, ordo_order o, double v);
/* Byte strings (text in the C collation, bytea): 00 escaped as 00 ff, then
 * the terminator 00 00. */
ORDO_API ordo_status ordo_key_bytes(ordo_key *k, ordo_order o, const void *p, size_t n);
ORDO_API ordo_status ordo_key_text(ordo_key *k, ordo_order o, const char *s, size_t n);
ORDO_API ordo_status ordo_key_uuid(ordo_key *k, ordo_order o, const uint8_t uuid[16]);
/* Temporal values in PostgreSQL's units and ranges (ORDO_ERR_OUT_OF_RANGE
 * outside them; the infinities are the type's extremes). */
ORDO_API ordo_status ordo_key_date(ordo_key *k, ordo_order o, int32_t days_since_2000);
ORDO_API ordo_status ordo_key_time(ordo_key *k, ordo_order o, int64_t micros);
ORDO_API ordo_status ordo_key_timestamp(ordo_key *k, ordo_order o, int64_t micros_since_2000);
ORDO_API ordo_status ordo_key_timestamptz(ordo_key *k, ordo_order o, int64_t micros_since_2000);
/* Ordered as PostgreSQL does: by micros + 86400e6 * (days + 30 * months);
 * all-minimum and all-maximum triples are -infinity and infinity. */
ORDO_API ordo_status ordo_key_interval(ordo_key *k, ordo_order o, int32_t months, int32_t days,
                                       int64_t micros);
/* numeric from its text: [+-]digits[.digits][e[+-]digits], .digits, or
 * [+-]Infinity, [+-]NaN; equal values of any scale give equal keys.
 * ORDO_ERR_INVALID_VALUE for anything else. */
ORDO_API ordo_status ordo_key_numeric(ordo_key *k, ordo_order o, const char *text, size_t n);
/* numeric from a scaled integer: the int128 hi:lo (high int64, low uint64,
 * as ordo_key_int128) times 10^-scale, e.g. Arrow decimal128 values with
 * their type's scale (negative scales too). The key of the value's text,
 * without the text. ORDO_ERR_INVALID_VALUE when the value's adjusted
 * exponent leaves int32 (as ordo_key_numeric). */
ORDO_API ordo_status ordo_key_numeric_scaled(ordo_key *k, ordo_order o, int64_t hi, uint64_t lo,
                                             int32_t scale);
/* A record (composite value): its presence byte in order o, then its fields
 * written by the usual calls, then ordo_key_record_end. Fields take their
 * own orders (ORDO_ASC_NULLS_LAST is PostgreSQL's record order); inside a
 * descending record every field order is mirrored (ASC <-> DESC and NULLS
 * FIRST <-> LAST), so the whole record sorts in reverse. A NULL record is
 * ordo_key_null. At most ORDO_RECORD_MAX_DEPTH records nest
 * (ORDO_ERR_BAD_STATE beyond, or for an end without a begin); finishing
 * inside a record is ORDO_ERR_BAD_STATE. */
#define ORDO_RECORD_MAX_DEPTH 31
ORDO_API ordo_status ordo_key_record_begin(ordo_key *k, ordo_order o);
ORDO_API ordo_status ordo_key_record_end(ordo_key *k);
/* A bit string given as n digits '0'/'1' (PostgreSQL's text form of bit and
 * bit varying); any other character is ORDO_ERR_INVALID_VALUE. */
ORDO_API ordo_status ordo_key_bit_string(ordo_key *k, ordo_order o, const char *digits, size_t n);
/* timetz as PostgreSQL compares it: the UTC time first (not reduced modulo a
 * day), then the zone (at one instant the larger east offset first). The
 * local time is within [0, 24:00:00], the offset within +-15:59:59. */
ORDO_API ordo_status ordo_key_timetz(ordo_key *k, ordo_order o, int64_t local_micros,
                                     int32_t east_seconds);
/* inet and cidr as PostgreSQL orders them: family, the address bits within
 * the shorter prefix, the prefix length, all the bits. family is 4 or 6,
 * bits at most 32 or 128; a cidr with host bits set is
 * ORDO_ERR_INVALID_VALUE (never masked). */
ORDO_API ordo_status ordo_key_inet(ordo_key *k, ordo_order o, const ordo_inet *v);
ORDO_API ordo_status ordo_key_cidr(ordo_key *k, ordo_order o, const ordo_inet *v);
ORDO_API ordo_status ordo_key_enum(ordo_key *k, ordo_order o, uint32_t rank);
ORDO_API ordo_status ordo_key_pg_lsn(ordo_key *k, ordo_order o, uint64_t lsn);
ORDO_API ordo_status ordo_key_macaddr(ordo_key *k, ordo_order o, const uint8_t mac[6]);
ORDO_API ordo_status ordo_key_macaddr8(ordo_key *k, ordo_order o, const uint8_t mac[8]);
/* One whole field already encoded (presence byte first), appended as it is:
 * what a batch's ORDO_TYPE_ENCODED column holds. It must be non-empty
 * (ORDO_ERR_INVALID_VALUE); its bytes are not checked. */
ORDO_API ordo_status ordo_key_encoded(ordo_key *k, const void *field, size_t n);

/* Ranges (PostgreSQL's int4range ... tstzrange; SPEC.md §14.17). flags say
 * which bounds are inclusive and which are unbounded (then inclusive is
 * ignored), or that the range is empty. After begin, write the value of
 * each bounded end, lower first, by the usual calls in ORDO_ASC_NULLS_LAST
 * (another order is ORDO_ERR_INVALID_ORDER, a NULL is ORDO_ERR_NULL_VALUE);
 * then ordo_key_range_end. subtype is the values' type: INT32, INT64 and
 * DATE are discrete and put in PostgreSQL's canonical form [lower, upper)
 * (ORDO_ERR_OUT_OF_RANGE when a bound steps past the type); any other
 * ordered type (NUMERIC, TIMESTAMP, TIMESTAMPTZ, ...) is kept as given. A
 * lower bound above the upper one is ORDO_ERR_INVALID_VALUE; equal bounds
 * not both inclusive make the empty range, as in PostgreSQL. A NULL range
 * is ordo_key_null. */
#define ORDO_RANGE_LOWER_INC 1u
#define ORDO_RANGE_UPPER_INC 2u
#define ORDO_RANGE_LOWER_INF 4u
#define ORDO_RANGE_UPPER_INF 8u
#define ORDO_RANGE_EMPTY 16u
ORDO_API ordo_status ordo_key_range_begin(ordo_key *k, ordo_order o, ordo_type subtype,
                                          unsigned flags);
ORDO_API ordo_status ordo_key_range_end(ordo_key *k);
/* One-dimensional arrays (lower bound 1; SPEC.md §14.18): begin, then each
 * element by the usual calls in ORDO_ASC_NULLS_LAST (ordo_key_null for a
 * NULL element), then end. PostgreSQL's order: element by element, a NULL
 * element above every value, a shorter equal prefix first. An element may
 * itself be a record, a range or an array (begin/end calls nested, the
 * element's own begin in ORDO_ASC_NULLS_LAST; a record's fields then take
 * their own orders as usual), at most ORDO_NEST_MAX_DEPTH ranges and arrays
 * open at once. Nothing nests inside a range (ORDO_ERR_BAD_STATE);
 * finishing inside one, or ending an array around a record not ended, is
 * ORDO_ERR_BAD_STATE. Both are variable fields (ORDO_ERR_BAD_TYPE in a
 * packed key). */
ORDO_API ordo_status ordo_key_array_begin(ordo_key *k, ordo_order o);
ORDO_API ordo_status ordo_key_array_end(ordo_key *k);
/* The key's length and the sticky error (ORDO_OK when none). */
ORDO_API ordo_status ordo_key_finish(const ordo_key *k, size_t *len);

/* ---------------------------------------------------------- collations */

/* A collation, opened once and then shared read-only by any number of
 * threads (nothing in it changes after ordo_collator_open). Names are
 * PostgreSQL's:
 *  - "C", "POSIX", "ucs_basic": byte order (the plain text field);
 *  - an ICU collation, "und-x-icu", "en-US-x-icu", "de-DE-u-co-phonebk-x-icu"
 *    (the suffix -x-icu dropped), or a BCP 47 tag alone ("sv-SE"): the
 *    tag's ICU locale with ICU's defaults, as PostgreSQL 15 opens it;
 *  - a libc locale ("en_US.utf8", "sv_SE.utf8": a name with '_', '.' or
 *    '@'), through newlocale with LC_COLLATE and LC_CTYPE.
 * ORDO_ERR_UNKNOWN_COLLATION for a name neither knows, ORDO_ERR_NO_ICU for
 * an ICU name in a build without ICU, ORDO_ERR_UNSUPPORTED_COLLATION for
 * a libc locale whose strcoll order no key gives (SPEC.md §17.1; use an
 * ICU collation), ORDO_ERR_OUT_OF_MEMORY. Opening allocates; encoding
 * allocates only ICU's UTF-16 copy of text over 512 bytes. */
ORDO_API ordo_status ordo_collator_open(const char *name, ordo_collator **c);
ORDO_API void ordo_collator_close(ordo_collator *c);
/* The version the collation's order is tied to, as PostgreSQL's
 * collversion: ICU's collator version ("153.120"); for a libc locale
 * glibc's version and the revision of ordo's libc key ("2.36+k2": the part
 * before '+' is PostgreSQL's collversion; SPEC.md §17.6); "" for byte
 * order. Keys made under one version may sort differently under another. */
ORDO_API const char *ordo_collator_version(const ordo_collator *c);
/* The name it was opened with, and its provider: "icu", "libc" or "c". */
ORDO_API const char *ordo_collator_name(const ordo_collator *c);
ORDO_API const char *ordo_collator_provider(const ordo_collator *c);
/* Whether this build has ICU (else ICU names are ORDO_ERR_NO_ICU). */
ORDO_API bool ordo_collator_have_icu(void);
/* The longest text a libc collation takes (ORDO_ERR_OUT_OF_RANGE beyond):
 * its key is built from one entry per character, on the stack. */
#define ORDO_LIBC_COLLATED_MAX 8191u

/* Text under collation c, in PostgreSQL's order for it, ties (strings the
 * collation finds equal) broken by their bytes as PostgreSQL does: the
 * presence byte, the collation's sort key, 00 00, the text escaped as by
 * ordo_key_text, 00 00 (SPEC.md §17). Under "C" the field is
 * ordo_key_text's. The text must be UTF-8 without 00 bytes, as PostgreSQL
 * text is (ORDO_ERR_INVALID_UTF8). c must stay open while in use. */
ORDO_API ordo_status ordo_key_text_collated(ordo_key *k, ordo_order o, const ordo_collator *c,
                                           const char *s, size_t n);
/* The exact size of that field, presence byte included (it computes the
 * sort key, without allocating). */
ORDO_API ordo_status ordo_key_text_collated_size(const ordo_collator *c, const char *s, size_t n,
                                                size_t *size);
/* The collation's sort key of s alone into dst[0..cap) (no 00 byte in it),
 * *len its length; ORDO_ERR_DST_TOO_SMALL (dst then unspecified) with *len
 * the length needed. For tests and benchmarks. */
ORDO_API ordo_status ordo_collator_sort_key(const ordo_collator *c, const char *s, size_t n,
                                           void *dst, size_t cap, size_t *len);

/* Exact field sizes, presence byte included: fixed types (len ignored),
 * BYTES/STRING from the value itself (n + zero bytes + 3), NUMERIC from its
 * text (2 for zero and the specials, significant digits + 7 otherwise;
 * ORDO_ERR_INVALID_VALUE for bad text), INET/CIDR from the ordo_inet at p. */
ORDO_API ordo_status ordo_key_field_size(ordo_type t, const void *p, size_t n, size_t *size);
/* Worst case of a bytes field of n bytes: 2n + 3 (ORDO_ERR_SIZE_OVERFLOW). */
ORDO_API ordo_status ordo_key_bytes_bound(size_t n, size_t *size);
/* ORDO_KEY_BOUND with an overflow check (ORDO_ERR_SIZE_OVERFLOW). */
ORDO_API ordo_status ordo_key_bound(size_t nfields, size_t var_bytes, size_t *bound);

/* Appends to dst[*dst_len .. cap) the smallest key above every key that
 * starts with prefix (cut between fields): drop trailing ff bytes, add 1 to
 * the last byte. ORDO_ERR_NO_BOUND for an empty or all-ff prefix. dst may
 * be prefix itself (*dst_len = 0). Writes nothing on error. */
ORDO_API ordo_status ordo_prefix_upper_bound(const void *prefix, size_t n, void *dst, size_t cap,
                                             size_t *dst_len);

/* Reads an ordered key back, field by field in schema order, with the
 * orders used to build it. Errors are sticky; a malformed or non-canonical
 * field is ORDO_ERR_MALFORMED_KEY and nothing past the key is ever read. */
typedef struct ordo_key_reader {
    const uint8_t *priv_key;
    size_t priv_len, priv_pos;
    ordo_status priv_err;
    uint32_t priv_flip, priv_depth; /* records, as in ordo_key */
    uint32_t priv_packed;
    /* inside a range or an array: the unescaped values are read from the
     * caller's scratch, the outer key is kept here */
    uint32_t priv_nest;
    const uint8_t *priv_outer_key;
    size_t priv_outer_len, priv_outer_pos;
    size_t priv_nest_end; /* a range: the end of its values (priv_len: of the one read now) */
    uint32_t priv_nest_rdepth, priv_nest_level; /* as in ordo_key */
    struct {
        uint32_t nest, rdepth;
        const uint8_t *outer_key;
        size_t outer_len, outer_pos, nest_end;
    } priv_nest_outer[ORDO_NEST_MAX_DEPTH - 1];
} ordo_key_reader;

ORDO_API void ordo_key_reader_init(ordo_key_reader *r, const void *key, size_t len);
/* A packed key (ordo_key_init_packed): the same reads, never a NULL; the
 * reads of variable-width fields and records are ORDO_ERR_BAD_TYPE. */
ORDO_API void ordo_key_reader_init_packed(ordo_key_reader *r, const void *key, size_t len);
/* Each read sets *is_null; a NULL gives a zero value. */
ORDO_API ordo_status ordo_key_read_bool(ordo_key_reader *r, ordo_order o, bool *v, bool *is_null);
ORDO_API ordo_status ordo_key_read_int(ordo_key_reader *r, ordo_order o, ordo_type t, int64_t *v,
                                       bool *is_null); /* INT8..INT64, DATE, TIME_OF_DAY, TIMESTAMP(TZ) */
ORDO_API ordo_status ordo_key_read_uint(ordo_key_reader *r, ordo_order o, ordo_type t, uint64_t *v,
                                        bool *is_null); /* UINT8..UINT64, ENUM, PG_LSN */
/* INT128, and INTERVAL as its order value (the triple itself is not kept). */
ORDO_API ordo_status ordo_key_read_int128(ordo_key_reader *r, ordo_order o, int64_t *hi,
                                          uint64_t *lo, bool *is_null);
ORDO_API ordo_status ordo_key_read_float64(ordo_key_reader *r, ordo_order o, double *v,
                                           bool *is_null);
ORDO_API ordo_status ordo_key_read_float32(ordo_key_reader *r, ordo_order o, float *v,
                                           bool *is_null);
/* UUID, MACADDR, MACADDR8: 16, 6 or 8 raw bytes into out. */
ORDO_API ordo_status ordo_key_read_fixed(ordo_key_reader *r, ordo_order o, ordo_type t,
                                         uint8_t *out, bool *is_null);
/* Bytes and text into dst[0..cap): on ORDO_ERR_DST_TOO_SMALL nothing is
 * written or consumed (not sticky) and *len is the size needed. */
ORDO_API ordo_status ordo_key_read_bytes(ordo_key_reader *r, ordo_order o, void *dst, size_t cap,
                                         size_t *len, bool *is_null);
/* A collated text field (not "C"): the original text into dst[0..cap), as
 * ordo_key_read_bytes; the sort key is skipped (no collator needed). */
ORDO_API ordo_status ordo_key_read_text_collated(ordo_key_reader *r, ordo_order o, void *dst,
                                                 size_t cap, size_t *len, bool *is_null);
ORDO_API ordo_status ordo_key_read_timetz(ordo_key_reader *r, ordo_order o, int64_t *local_micros,
                                          int32_t *east_seconds, bool *is_null);
/* inet (cidr = 0) or cidr (cidr = 1; a read whose host bits are set is
 * malformed). */
ORDO_API ordo_status ordo_key_read_inet(ordo_key_reader *r, ordo_order o, int cidr, ordo_inet *v,
                                        bool *is_null);
/* numeric back as canonical text: [-]DIGITSeEXP, 0, NaN, Infinity or
 * -Infinity; short dst as for bytes (not sticky, *len = size needed). */
/* A bit string's digits into dst[0..cap), *len of them; ORDO_ERR_DST_TOO_SMALL
 * (not sticky) with *len the count needed. */
ORDO_API ordo_status ordo_key_read_bit_string(ordo_key_reader *r, ordo_order o, char *dst,
                                              size_t cap, size_t *len, bool *is_null);
ORDO_API ordo_status ordo_key_read_numeric(ordo_key_reader *r, ordo_order o, char *dst,
                                           size_t cap, size_t *len, bool *is_null);
/* Bytes not read yet (0 after a complete, matching decode). */
/* A record's presence byte; when present, read its fields with the orders
 * they were written with, then ordo_key_read_record_end. */
ORDO_API ordo_status ordo_key_read_record_begin(ordo_key_reader *r, ordo_order o, bool *is_null);
ORDO_API ordo_status ordo_key_read_record_end(ordo_key_reader *r);
/* A range field: *flags as ordo_key_range_begin takes them (for INT32,
 * INT64 and DATE the canonical form: a finite lower bound inclusive, a
 * finite upper one exclusive). When present, the bounded ends' values
 * follow (none for an empty range), lower first: read them with
 * ORDO_ASC_NULLS_LAST, then ordo_key_read_range_end (also after an empty
 * one). Each read must take exactly its value's bytes. A non-canonical
 * range (bounds out of order, a discrete one not in [lower, upper) form)
 * is ORDO_ERR_MALFORMED_KEY. The values are unescaped into the caller's
 * scratch[0..cap), which must outlive those reads; ordo_key_reader_remaining
 * bytes always suffice (ORDO_ERR_DST_TOO_SMALL, not sticky, with *need the
 * size needed). need may be NULL. */
ORDO_API ordo_status ordo_key_read_range_begin(ordo_key_reader *r, ordo_order o, ordo_type subtype,
                                               void *scratch, size_t cap, size_t *need,
                                               unsigned *flags, bool *is_null);
ORDO_API ordo_status ordo_key_read_range_end(ordo_key_reader *r);
/* An array field: *count elements follow (read each with
 * ORDO_ASC_NULLS_LAST; a record, range or array element by its own begin
 * and end calls, a range or array with scratch of its own), then
 * ordo_key_read_array_end. scratch as for ranges. */
ORDO_API ordo_status ordo_key_read_array_begin(ordo_key_reader *r, ordo_order o, void *scratch,
                                               size_t cap, size_t *need, size_t *count,
                                               bool *is_null);
ORDO_API ordo_status ordo_key_read_array_end(ordo_key_reader *r);
ORDO_API size_t ordo_key_reader_remaining(const ordo_key_reader *r);
ORDO_API ordo_status ordo_key_reader_status(const ordo_key_reader *r);

/* ------------------------------------------------------- text parsers */

/* 8-4-4-4-12 hex digits, either case, to 16 bytes in network order. */
ORDO_API ordo_status ordo_parse_uuid(const char *s, size_t n, uint8_t out[16]);
/* RFC 3339: YYYY-MM-DD(T|t| )HH:MM:SS[.1-9 digits](Z|z|+HH:MM|-HH:MM), to
 * Unix nanoseconds. Instants outside the int64 nanosecond range (before
 * 1677-09-21T00:12:43.145224192Z or after 2262-04-11T23:47:16.854775807Z)
 * are ORDO_ERR_OUT_OF_RANGE, never wrapped. */
ORDO_API ordo_status ordo_parse_rfc3339(const char *s, size_t n, int64_t *unix_ns);
/* Seconds + nanoseconds (any sign, normalised) to Unix nanoseconds, with
 * ORDO_ERR_OUT_OF_RANGE instead of a wrap. */
ORDO_API ordo_status ordo_time_from_unix(int64_t sec, int64_t nsec, int64_t *unix_ns);
/* Days and microseconds from 1970-01-01 to 2000-01-01: the epoch of ordo's
 * dates and timestamps (PostgreSQL's), where Unix time and Arrow count from
 * 1970. */
#define ORDO_PG_EPOCH_DAYS 10957
#define ORDO_PG_EPOCH_US INT64_C(946684800000000)
/* Days since 1970-01-01 of year y, month m (1-12), day d (1-31) in the
 * proleptic Gregorian calendar (year 0 is 1 BC); a day past its month's end
 * counts on into the next month. Exact for |y| below 2^40. */
ORDO_API int64_t ordo_days_from_civil(int64_t y, int m, int d);
/* The inverse: the year, month (1-12) and day (1-31) of days since
 * 1970-01-01; exact for |days| below 2^48. */
ORDO_API void ordo_civil_from_days(int64_t days, int64_t *y, int *m, int *d);
/* Days in month m (1-12) of year y; 0 for another m (so d <= the result
 * checks a day and its month at once). */
ORDO_API int ordo_days_in_month(int64_t y, int m);

/* --------------------------------------------------- columnar batches */

/* Key formats of the batch API. Values are pinned. */
typedef enum ordo_format {
    ORDO_FORMAT_LEXKEY = 1,        /* LexKey, canonical widths */
    ORDO_FORMAT_LEXKEY_LEGACY = 2, /* LexKey, native widths */
    ORDO_FORMAT_ORDERED = 3,       /* the ordered format: each column's `order` applies */
    ORDO_FORMAT_PACKED = 4         /* fixed-width NOT NULL fields, nothing between them
                                      (SPEC.md §16); ASC/DESC of `order` applies */
} ordo_format;

/* Units of a TIME or DURATION column's values (Arrow timestamps, durations,
 * date32 and date64). */
typedef enum ordo_time_unit {
    ORDO_UNIT_NS = 0,   /* nanoseconds (the default) */
    ORDO_UNIT_US = 1,   /* microseconds */
    ORDO_UNIT_MS = 2,   /* milliseconds */
    ORDO_UNIT_S = 3,    /* seconds */
    ORDO_UNIT_DAY32 = 4 /* days as int32 values (Arrow date32) */
} ordo_time_unit;

/* How a NUMERIC column's values are held (ordo_column.numeric_layout).
 * Values are pinned. */
typedef enum ordo_numeric_layout {
    ORDO_NUMERIC_TEXT = 0,       /* decimal text through offsets, as STRING (the default) */
    ORDO_NUMERIC_DECIMAL128 = 1, /* 16 bytes an element, little-endian two's complement
                                    (Arrow decimal128): element x 10^-numeric_scale */
    ORDO_NUMERIC_INT64 = 2       /* int64 elements: element x 10^-numeric_scale */
} ordo_numeric_layout;

/* The bytes of one element of a NUMERIC column held in `layout`: 16, 8, or
 * 0 for text (through offsets). */
static inline size_t ordo_numeric_layout_width(uint8_t layout)
{
    return layout == ORDO_NUMERIC_DECIMAL128 ? 16 : layout == ORDO_NUMERIC_INT64 ? 8 : 0;
}

/* One column of a batch, in Arrow's memory layout. Row i of the column is
 * element (offset + i) of its buffers. Nothing is copied or owned.
 *  - values: the elements, one C value each: int8_t .. int64_t, uint8_t ..
 *    uint64_t, float, double; int64_t for INT, and for TIME and DURATION in
 *    time_unit (int32_t for ORDO_UNIT_DAY32); 16 bytes per UUID; an LSB-first
 *    bitmap for BOOL; the concatenated bytes for STRING and BYTES.
 *  - offsets: STRING and BYTES only: offset+n+1 int32_t or int64_t
 *    (offset_bits 32 or 64) positions into values, non-decreasing.
 *  - validity: LSB-first bitmap, 1 = valid; NULL means no NULLs. A NULL in
 *    the LexKey formats encodes as the nil byte 00.
 *  - NIL and END columns need no buffers: every row is the constant.
 *  - The ordered format's types: INT128 as 16 bytes (little-endian two's
 *    complement: low uint64, then high int64), DATE int32, TIME_OF_DAY,
 *    TIMESTAMP and TIMESTAMPTZ int64, INTERVAL as ordo_interval, ENUM
 *    uint32, PG_LSN uint64, MACADDR 6 bytes, MACADDR8 8 bytes; `order` is
 *    the column's ordo_order (ignored by the LexKey formats). */
typedef struct ordo_column {
    ordo_type type;
    const void *values;
    const void *offsets;
    const uint8_t *validity;
    size_t offset;
    uint8_t offset_bits;
    uint8_t time_unit;
    uint8_t order;
    /* STRING in the ordered format: its collation (NULL: "C", the bytes),
     * as ordo_key_text_collated. Other types and formats: NULL. */
    const struct ordo_collator *collator;
    /* A collated column's sort keys, computed once by ordo_sort_keys_compute
     * for this batch (NULL: the batch calls compute them, several times). */
    const struct ordo_sort_keys *sort_keys;
    /* NUMERIC in the ordered format: the layout of values (ordo_numeric_layout;
     * 0, text, for every other type) and, for the integer layouts, the scale
     * (Arrow's decimal scale, any int32): row value = element x 10^-scale,
     * encoded as ordo_key_numeric_scaled, no offsets. Appended fields:
     * zero-initialised columns keep their meaning. */
    uint8_t numeric_layout;
    int32_t numeric_scale;
} ordo_column;

/* The sort keys of a collated column's rows, in caller-owned scratch: row
 * r's key is bytes[offsets[r] .. offsets[r+1]) (empty for a NULL). */
typedef struct ordo_sort_keys {
    const uint8_t *bytes;
    const size_t *offsets; /* nrows + 1 entries, offsets[0] = 0 */
    size_t nrows;          /* the rows they were computed for */
    const struct ordo_collator *collator; /* the collation that computed them */
} ordo_sort_keys;

/* A TIMETZ column's element: local microseconds since midnight and the
 * offset in seconds east of UTC. */
typedef struct ordo_timetz {
    int64_t micros;
    int32_t east;
} ordo_timetz;

/* An INTERVAL column's element (PostgreSQL's representation). */
typedef struct ordo_interval {
    int32_t months;
    int32_t days;
    int64_t micros;
} ordo_interval;

/* Where a batch call failed: the row (relative to the batch) and column. */
typedef struct ordo_batch_error {
    size_t row;
    size_t column;
} ordo_batch_error;

/* Pass 1: the exact total size of the nrows keys, and *stride (may be NULL)
 * = the common key length when every key has the same length (all columns
 * fixed width, no NULLs; always in the packed format, where a NULL is
 * ORDO_ERR_NULL_VALUE and a variable-width column ORDO_ERR_BAD_TYPE), else 0.
 * Validates everything the encoder will: on error, *where (may be NULL) tells the row and column. ncols >= 1. */
ORDO_API ordo_status ordo_batch_size(ordo_format fmt, const ordo_column *cols, size_t ncols,
                                     size_t nrows, size_t *total, size_t *stride,
                                     ordo_batch_error *where);

/* Pass 2: encodes the nrows keys back to back into dst[0..cap). Key i is
 * dst[offsets[i] .. offsets[i+1]); offsets has nrows+1 entries and may be
 * NULL only when the batch has a fixed stride (key i at i*stride). The
 * result is byte-identical to building each row with the row API. On error
 * nothing is written to dst or offsets. Uses the implementation that
 * ordo_impl_name() reports. */
ORDO_API ordo_status ordo_batch_encode(ordo_format fmt, const ordo_column *cols, size_t ncols,
                                       size_t nrows, void *dst, size_t cap, size_t *offsets,
                                       ordo_batch_error *where);

/* The same with a named implementation ("scalar", "portable", "sse41",
 * "avx2", "avx512", "neon"): ORDO_ERR_UNKNOWN_IMPL or ORDO_ERR_UNSUPPORTED_IMPL when it cannot run
 * here. For benchmarks and tests. */
ORDO_API ordo_status ordo_batch_encode_impl(const char *impl, ordo_format fmt,
                                            const ordo_column *cols, size_t ncols, size_t nrows,
                                            void *dst, size_t cap, size_t *offsets,
                                            ordo_batch_error *where);

/* A collated STRING column's sort keys for rows 0 .. nrows, computed once
 * so that ordo_batch_size and ordo_batch_encode only copy them (set
 * c->sort_keys = out before those calls; they check that out was made for
 * the column's collator and the batch's row count, else
 * ORDO_ERR_INVALID_ARG). The keys go to bytes[0..cap), their offsets to
 * offsets[0..nrows] (caller-owned, nrows + 1 entries; nothing allocated).
 * Neither ICU nor glibc documents a bound on a sort key's length, so *need
 * is the bytes needed (the keys and one more, for the library's
 * terminator); ORDO_ERR_DST_TOO_SMALL when that exceeds cap (*out then
 * untouched: grow the scratch to *need and call again). Text that is not
 * UTF-8 is ORDO_ERR_INVALID_UTF8; a column that is not collated STRING,
 * ORDO_ERR_BAD_TYPE; *where (may be NULL) names the row. The keys stay
 * valid while the column's text and the collator do. */
ORDO_API ordo_status ordo_sort_keys_compute(const ordo_column *c, size_t nrows, void *bytes,
                                            size_t cap, size_t *offsets, ordo_sort_keys *out,
                                            size_t *need, ordo_batch_error *where);
/* Whether c's keys come from sort keys: STRING under a collation other
 * than "C" (what ordo_sort_keys_compute takes). */
ORDO_API int ordo_column_collated(const ordo_column *c);

/* ------------------------------------------- Arrow C Data Interface */

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE
#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4
struct ArrowSchema {
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};
struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};
#endif
#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE
struct ArrowArrayStream {
    int (*get_schema)(struct ArrowArrayStream *, struct ArrowSchema *out);
    int (*get_next)(struct ArrowArrayStream *, struct ArrowArray *out);
    const char *(*get_last_error)(struct ArrowArrayStream *);
    void (*release)(struct ArrowArrayStream *);
    void *private_data;
};
#endif

/* What the C Data Interface lets a consumer check before it reads, for
 * structs from anyone (a Python capsule, another library): a schema not
 * released, its format set and parsing as an Arrow format (else
 * ORDO_ERR_BAD_TYPE), n_children >= 0 and as the format has them, children
 * and each child set, nesting at most 64 deep, a dictionary only on
 * integer indices; and an array (ordo_arrow_check) not released, length
 * and offset >= 0 with offset + length in int64 (ORDO_ERR_SIZE_OVERFLOW),
 * -1 <= null_count <= length, n_buffers as the format's layout has them,
 * every buffer the layout needs set when length > 0 (the validity bitmap
 * when null_count != 0), n_children the schema's, each child set and, for
 * a struct, covering offset + length rows, and a dictionary exactly when
 * the schema has one; children and dictionaries recursively. A NULL
 * pointer or too few buffers is ORDO_ERR_NULL_ARG, any other lie
 * ORDO_ERR_INVALID_VALUE; err
 * (may be NULL) gets a message naming the field ("Arrow array
 * children[1]: n_buffers is 1, its format needs 3"). No buffer is read, no
 * callback called: buffer lengths are not part of the interface. */
ORDO_API ordo_status ordo_arrow_check_schema(const struct ArrowSchema *schema, ordo_error *err);
ORDO_API ordo_status ordo_arrow_check(const struct ArrowSchema *schema,
                                      const struct ArrowArray *array, ordo_error *err);
/* An Arrow decimal format, "d:P,S" or "d:P,S,BITS" (BITS 32, 64, 128 or
 * 256; 128 when left out; P >= 1; S any int32): its parts (each may be
 * NULL), or ORDO_ERR_BAD_TYPE. The one parser of the format (the checks
 * above use it). */
ORDO_API ordo_status ordo_arrow_decimal(const char *format, int32_t *precision, int32_t *scale,
                                        int *bits);
/* A stream's schema and its next array, checked as above: a stream
 * released, or with a NULL callback, is an error before anything is
 * called; a callback that fails is ORDO_ERR_IO with the producer's
 * get_last_error text (or its error number). On success *out is the
 * caller's to release; the end of the stream is an array whose release is
 * NULL. On any error *out is zeroed (a malformed one released first). */
ORDO_API ordo_status ordo_arrow_stream_schema(struct ArrowArrayStream *stream,
                                              struct ArrowSchema *out, ordo_error *err);
ORDO_API ordo_status ordo_arrow_stream_next(struct ArrowArrayStream *stream,
                                            const struct ArrowSchema *schema,
                                            struct ArrowArray *out, ordo_error *err);

/* Describes one Arrow array as an ordo column (reading only: nothing is
 * copied, owned or released). Formats: b c C s S i I l L f g u U z Z,
 * w:16 (as UUID), tdD (date32), tdm (date64), ts{s,m,u,n}:ZONE (an instant,
 * whatever the zone), tD{s,m,u,n} (duration), n (all NULL). Anything else
 * or a dictionary is ORDO_ERR_BAD_TYPE; then the structs are checked as
 * ordo_arrow_check checks them; *nrows (if not NULL) receives the array's
 * length. */
/* The column type (and time unit) ordo_arrow_column gives an array of this
 * format; ORDO_ERR_BAD_TYPE for any other format. The one table of them. */
ORDO_API ordo_status ordo_arrow_format(const char *format, ordo_type *type, uint8_t *unit);
ORDO_API ordo_status ordo_arrow_column(const struct ArrowSchema *schema,
                                       const struct ArrowArray *array, ordo_column *col,
                                       size_t *nrows);
/* A struct array ("+s") as a batch: one column per child, in order. A struct
 * with NULL rows is ORDO_ERR_BAD_TYPE (a row key needs its fields). cols has
 * room for cap columns (ORDO_ERR_DST_TOO_SMALL otherwise); *ncols and
 * *nrows receive the batch's shape. */
ORDO_API ordo_status ordo_arrow_struct(const struct ArrowSchema *schema,
                                       const struct ArrowArray *array, ordo_column *cols,
                                       size_t cap, size_t *ncols, size_t *nrows);

/* --------------------------------------------------------- CSV structure */

/* Entries ordo_csv_index may write for n input bytes (whole 64-byte blocks
 * are flattened eight positions at a time). */
#define ORDO_CSV_INDEX_ROOM(n) ((size_t)(n) + 72u)

/* The structure of CSV as PostgreSQL's COPY writes it (comma, double
 * quote, LF), found with the active kernels: writes to idx, in input order,
 * the offset of every '"' in p[0..n) and of every ',' and '\n' outside
 * quotes, and sets *count. A doubled quote inside quotes is two entries, so
 * the state simply toggles at each quote. *in_quotes carries that state from
 * one call to the next (0 at the start of input, and at every row start).
 * n below 4 GiB; room >= ORDO_CSV_INDEX_ROOM(n), entries past *count are
 * scratch. Errors: NULL_ARG, DST_TOO_SMALL, SIZE_OVERFLOW, and ORDO_IMPL's. */
ORDO_API ordo_status ordo_csv_index(const uint8_t *p, size_t n, uint32_t *idx, size_t room,
                                    size_t *count, int *in_quotes);
/* The same with a named implementation, as ordo_batch_encode_impl. */
ORDO_API ordo_status ordo_csv_index_impl(const char *impl, const uint8_t *p, size_t n,
                                         uint32_t *idx, size_t room, size_t *count,
                                         int *in_quotes);

/* ------------------------------------------------ implementations, CPU */

/* CPU feature bits as detected once at first use. ORDO_CPU_SSE41 means
 * SSE4.1 and POPCNT, which the x86 kernels both use. */
#define ORDO_CPU_SSE41 1u
#define ORDO_CPU_AVX2 2u
#define ORDO_CPU_NEON 4u
/* AVX-512 F, BW, VL and VBMI, with the OS saving the opmask and ZMM state. */
#define ORDO_CPU_AVX512 8u
ORDO_API unsigned ordo_cpu_features(void);

/* The kernel implementation in use ("scalar", "portable", "sse41", "avx2",
 * "avx512", "neon"), chosen once: the best this CPU supports ("portable", plain C,
 * when no SIMD kernels are built or supported; "scalar", the reference,
 * only by name), or the one named by the environment variable ORDO_IMPL. *status (if not NULL) receives
 * ORDO_ERR_UNKNOWN_IMPL or ORDO_ERR_UNSUPPORTED_IMPL when ORDO_IMPL cannot be
 * honoured; batch calls then fail with that status rather than fall back. */
ORDO_API const char *ordo_impl_name(ordo_status *status);

/* The implementations this library knows, for listing them (tests,
 * benchmarks): the scalar reference first, then the rest from the least
 * to the most preferred. Returns the name of entry i, or NULL past the
 * last; *status (if not NULL) receives ORDO_OK when this CPU runs it, or
 * ORDO_ERR_UNSUPPORTED_IMPL (not built, or the CPU lacks it). */
ORDO_API const char *ordo_impl_at(size_t i, ordo_status *status);

#ifdef __cplusplus
}
#endif

/* Inline fast paths of the row builders' common calls (the same bytes and
 * statuses; ORDO_NO_INLINE turns them off). */
#include "ordo_inline.h"

#endif /* ORDO_H */
