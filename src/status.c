/* Every status and type name, in one place. */
#include "ordo_internal.h"

#define ORDO_STATUSES(X)                                                                  \
    X(ORDO_OK, "success")                                                                 \
    X(ORDO_ERR_NULL_ARG, "a required pointer is NULL")                                    \
    X(ORDO_ERR_INVALID_ARG, "invalid argument or flag")                                   \
    X(ORDO_ERR_BAD_STATE, "the key is sealed by a first/last suffix")                     \
    X(ORDO_ERR_BAD_TYPE, "unknown type, or one the format cannot hold")                   \
    X(ORDO_ERR_INVALID_VALUE, "invalid value text")                                       \
    X(ORDO_ERR_OUT_OF_RANGE, "value out of range for its type")                           \
    X(ORDO_ERR_NULL_VALUE, "NULL in a column that cannot hold one (packed keys)")         \
    X(ORDO_ERR_DST_TOO_SMALL, "destination too small")                                    \
    X(ORDO_ERR_SIZE_OVERFLOW, "size overflows size_t")                                    \
    X(ORDO_ERR_BAD_HEX_CHAR, "invalid hex character")                                     \
    X(ORDO_ERR_ODD_HEX_LENGTH, "odd number of hex digits")                                \
    X(ORDO_ERR_BAD_JSON, "not a JSON string of hex or null")                              \
    X(ORDO_ERR_NO_PARTS, "no parts provided")                                             \
    X(ORDO_ERR_NO_SEPARATOR, "primary key has no 00 separator")                           \
    X(ORDO_ERR_EMPTY_HALF, "primary key has an empty partition or row key")               \
    X(ORDO_ERR_MALFORMED_KEY, "malformed key")                                            \
    X(ORDO_ERR_INVALID_ORDER, "invalid order (not one of the four ordo_order values)")    \
    X(ORDO_ERR_NO_BOUND, "the prefix has no finite upper bound")                          \
    X(ORDO_ERR_AMBIGUOUS_KEY, "ambiguous LexKey part: nil (00) or a value")               \
    X(ORDO_ERR_UNKNOWN_IMPL, "unknown implementation name in ORDO_IMPL")                  \
    X(ORDO_ERR_UNSUPPORTED_IMPL, "implementation not built or not supported by this CPU")   \
    X(ORDO_ERR_OUT_OF_MEMORY, "out of memory")                                            \
    X(ORDO_ERR_IO, "a file or store operation failed")                                    \
    X(ORDO_ERR_NO_ROOM, "not enough disk space or too low a file-size limit")             \
    X(ORDO_ERR_UNSAFE_PATH, "refused: a link, FIFO or foreign file, or an output that is an input") \
    X(ORDO_ERR_INTERRUPTED, "interrupted")                                                \
    X(ORDO_ERR_NO_STORE, "built without a store (RocksDB)")                               \
    X(ORDO_ERR_DUPLICATE_KEY, "duplicate key")                                            \
    X(ORDO_ERR_UNSORTED, "keys out of order")                                             \
    X(ORDO_ERR_TABLE_EXISTS, "the store already holds that table or keys under its tag")  \
    X(ORDO_ERR_NO_TABLE, "no such table")                                                 \
    X(ORDO_ERR_RESERVED_KEY, "an untagged key starts with byte ff (system keys)")         \
    X(ORDO_ERR_OVERLAP, "SST files with overlapping key ranges")                          \
    X(ORDO_ERR_BAD_INPUT, "malformed input")                                              \
    X(ORDO_ERR_ROW_TOO_LONG, "row too long")                                              \
    X(ORDO_ERR_BAD_HEADER, "the header row does not name the schema's columns")          \
    X(ORDO_ERR_UNKNOWN_COLLATION, "unknown collation")                                    \
    X(ORDO_ERR_INVALID_UTF8, "invalid byte sequence for encoding UTF8")                   \
    X(ORDO_ERR_NO_ICU, "built without ICU: ICU collations are not available")             \
    X(ORDO_ERR_COLLATION_VERSION, "collation version mismatch")                           \
    X(ORDO_ERR_UNSUPPORTED_COLLATION,                                                     \
      "a libc locale whose strcoll order ordo cannot reproduce: use an ICU collation")

const char *ordo_status_name(ordo_status s)
{
    switch (s) {
#define NAME(c, m) \
    case c:        \
        return #c;
        ORDO_STATUSES(NAME)
#undef NAME
    }
    return "ORDO_ERR_UNKNOWN";
}

const char *ordo_status_message(ordo_status s)
{
    switch (s) {
#define MSG(c, m) \
    case c:       \
        return m;
        ORDO_STATUSES(MSG)
#undef MSG
    }
    return "unknown status";
}

const char *ordo_type_name(ordo_type t)
{
    switch (t) {
    case ORDO_TYPE_STRING: return "string";
    case ORDO_TYPE_BYTES: return "bytes";
    case ORDO_TYPE_UUID: return "uuid";
    case ORDO_TYPE_BOOL: return "bool";
    case ORDO_TYPE_INT8: return "int8";
    case ORDO_TYPE_INT16: return "int16";
    case ORDO_TYPE_INT32: return "int32";
    case ORDO_TYPE_INT64: return "int64";
    case ORDO_TYPE_INT: return "int";
    case ORDO_TYPE_UINT8: return "uint8";
    case ORDO_TYPE_UINT16: return "uint16";
    case ORDO_TYPE_UINT32: return "uint32";
    case ORDO_TYPE_UINT64: return "uint64";
    case ORDO_TYPE_FLOAT32: return "float32";
    case ORDO_TYPE_FLOAT64: return "float64";
    case ORDO_TYPE_TIME: return "time";
    case ORDO_TYPE_DURATION: return "duration";
    case ORDO_TYPE_NIL: return "nil";
    case ORDO_TYPE_END: return "end";
    case ORDO_TYPE_INT128: return "int128";
    case ORDO_TYPE_DATE: return "date";
    case ORDO_TYPE_TIME_OF_DAY: return "time_of_day";
    case ORDO_TYPE_TIMESTAMP: return "timestamp";
    case ORDO_TYPE_TIMESTAMPTZ: return "timestamptz";
    case ORDO_TYPE_INTERVAL: return "interval";
    case ORDO_TYPE_ENUM: return "enum";
    case ORDO_TYPE_PG_LSN: return "pg_lsn";
    case ORDO_TYPE_MACADDR: return "macaddr";
    case ORDO_TYPE_MACADDR8: return "macaddr8";
    case ORDO_TYPE_NUMERIC: return "numeric";
    case ORDO_TYPE_BIT: return "bit";
    case ORDO_TYPE_ENCODED: return "encoded";
    case ORDO_TYPE_TIMETZ: return "timetz";
    case ORDO_TYPE_INET: return "inet";
    case ORDO_TYPE_CIDR: return "cidr";
    }
    return NULL;
}

const char *ordo_version(void) { return ORDO_VERSION_STRING; }
