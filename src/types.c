/* The per-type facts (src/types.h), one row per type. */
#include "types.h"

#include "kernels.h"

/* elem_size, variable, ordered, ordered_size, lexkey_width, legacy_width,
 * lexkey_op, legacy_op, ordered_op */
#define NONE (-1)
const ordo__type_info ordo__types[ORDO_TYPE_LIMIT] = {
    [0] = {0, 0, 0, 0, NONE, NONE, NONE, NONE, NONE},
    [ORDO_TYPE_STRING] = {0, 1, 1, 0, 0, 0, NONE, NONE, NONE},
    [ORDO_TYPE_BYTES] = {0, 1, 1, 0, 0, 0, NONE, NONE, NONE},
    [ORDO_TYPE_UUID] = {16, 0, 1, 17, 16, 16, ORDO_OP_COPY16, ORDO_OP_COPY16, ORDO_OP_COPY16},
    [ORDO_TYPE_BOOL] = {0, 0, 1, 2, 1, 1, NONE, NONE, NONE},
    [ORDO_TYPE_INT8] = {1, 0, 1, 2, 8, 1, ORDO_OP_I8_W, ORDO_OP_I8, ORDO_OP_I8},
    [ORDO_TYPE_INT16] = {2, 0, 1, 3, 8, 2, ORDO_OP_I16_W, ORDO_OP_I16, ORDO_OP_I16},
    [ORDO_TYPE_INT32] = {4, 0, 1, 5, 8, 4, ORDO_OP_I32_W, ORDO_OP_I32, ORDO_OP_I32},
    [ORDO_TYPE_INT64] = {8, 0, 1, 9, 8, 8, ORDO_OP_I64, ORDO_OP_I64, ORDO_OP_I64},
    [ORDO_TYPE_INT] = {8, 0, 0, 0, 8, 8, ORDO_OP_I64, ORDO_OP_I64, NONE},
    [ORDO_TYPE_UINT8] = {1, 0, 1, 2, 8, 1, ORDO_OP_U8_W, ORDO_OP_U8, ORDO_OP_U8},
    [ORDO_TYPE_UINT16] = {2, 0, 1, 3, 8, 2, ORDO_OP_U16_W, ORDO_OP_U16, ORDO_OP_U16},
    [ORDO_TYPE_UINT32] = {4, 0, 1, 5, 8, 4, ORDO_OP_U32_W, ORDO_OP_U32, ORDO_OP_U32},
    [ORDO_TYPE_UINT64] = {8, 0, 1, 9, 8, 8, ORDO_OP_U64, ORDO_OP_U64, ORDO_OP_U64},
    [ORDO_TYPE_FLOAT32] = {4, 0, 1, 5, 8, 4, ORDO_OP_F32_W_LEX, ORDO_OP_F32_LEX, ORDO_OP_F32_ORD},
    [ORDO_TYPE_FLOAT64] = {8, 0, 1, 9, 8, 8, ORDO_OP_F64_LEX, ORDO_OP_F64_LEX, ORDO_OP_F64_ORD},
    /* time and duration: 4-byte days in ORDO_UNIT_DAY32 columns, and the op
     * holds for nanoseconds only (ordo__col_op) */
    [ORDO_TYPE_TIME] = {8, 0, 0, 0, 8, 8, ORDO_OP_I64, ORDO_OP_I64, NONE},
    [ORDO_TYPE_DURATION] = {8, 0, 0, 0, 8, 8, ORDO_OP_I64, ORDO_OP_I64, NONE},
    [ORDO_TYPE_NIL] = {0, 0, 1, 1, 1, 1, NONE, NONE, NONE},
    [ORDO_TYPE_END] = {0, 0, 0, 0, 1, 1, NONE, NONE, NONE},
    [ORDO_TYPE_INT128] = {16, 0, 1, 17, NONE, NONE, NONE, NONE, NONE},
    [ORDO_TYPE_DATE] = {4, 0, 1, 5, NONE, NONE, NONE, NONE, ORDO_OP_I32},
    [ORDO_TYPE_TIME_OF_DAY] = {8, 0, 1, 9, NONE, NONE, NONE, NONE, ORDO_OP_I64},
    [ORDO_TYPE_TIMESTAMP] = {8, 0, 1, 9, NONE, NONE, NONE, NONE, ORDO_OP_I64},
    [ORDO_TYPE_TIMESTAMPTZ] = {8, 0, 1, 9, NONE, NONE, NONE, NONE, ORDO_OP_I64},
    [ORDO_TYPE_INTERVAL] = {16, 0, 1, 17, NONE, NONE, NONE, NONE, NONE},
    [ORDO_TYPE_ENUM] = {4, 0, 1, 5, NONE, NONE, NONE, NONE, ORDO_OP_U32},
    [ORDO_TYPE_PG_LSN] = {8, 0, 1, 9, NONE, NONE, NONE, NONE, ORDO_OP_U64},
    [ORDO_TYPE_MACADDR] = {6, 0, 1, 7, NONE, NONE, NONE, NONE, NONE},
    [ORDO_TYPE_MACADDR8] = {8, 0, 1, 9, NONE, NONE, NONE, NONE, NONE},
    [ORDO_TYPE_NUMERIC] = {0, 1, 1, 0, NONE, NONE, NONE, NONE, NONE},
    /* timetz: the UTC instant (8) and the offset (4) */
    [ORDO_TYPE_TIMETZ] = {sizeof(ordo_timetz), 0, 1, 13, NONE, NONE, NONE, NONE, NONE},
    [ORDO_TYPE_INET] = {sizeof(ordo_inet), 0, 1, 0, NONE, NONE, NONE, NONE, NONE},
    [ORDO_TYPE_CIDR] = {sizeof(ordo_inet), 0, 1, 0, NONE, NONE, NONE, NONE, NONE},
    [ORDO_TYPE_BIT] = {0, 1, 1, 0, NONE, NONE, NONE, NONE, NONE},
    [ORDO_TYPE_ENCODED] = {0, 1, 1, 0, NONE, NONE, NONE, NONE, NONE},
};
