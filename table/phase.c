/* The names of a load's phases, as progress lines and messages print them. */
#include "ordo_table.h"

const char *ordo_table_phase_name(ordo_table_phase p)
{
    switch (p) {
    case ORDO_TABLE_PHASE_READ: return "read/encode";
    case ORDO_TABLE_PHASE_SORT: return "sort";
    case ORDO_TABLE_PHASE_MERGE: return "merge/write";
    case ORDO_TABLE_PHASE_WRITE: return "write";
    case ORDO_TABLE_PHASE_INGEST: return "ingest";
    }
    return "";
}
