/* The tool's schemas: "name TYPE [ASC|DESC] [NULLS FIRST|NULLS LAST], ..."
 * with PostgreSQL's type names (and DuckDB's for what PostgreSQL lacks). */
#ifndef ORDO_SCHEMA_H
#define ORDO_SCHEMA_H

#include "ordo.h"

#include <stddef.h>

/* The SQL types the tool knows, whatever the key format. */
typedef enum sql_type {
    SQL_BOOLEAN = 1,
    SQL_TINYINT,
    SQL_SMALLINT,
    SQL_INTEGER,
    SQL_BIGINT,
    SQL_HUGEINT,
    SQL_UTINYINT,
    SQL_USMALLINT,
    SQL_UINTEGER,
    SQL_UBIGINT,
    SQL_REAL,
    SQL_DOUBLE,
    SQL_NUMERIC,
    SQL_TEXT,
    SQL_BPCHAR, /* char(n): trailing spaces do not count */
    SQL_BYTEA,
    SQL_UUID,
    SQL_DATE,
    SQL_TIME,
    SQL_TIMETZ,
    SQL_TIMESTAMP,
    SQL_TIMESTAMPTZ,
    SQL_INTERVAL,
    SQL_INET,
    SQL_CIDR,
    SQL_MACADDR,
    SQL_MACADDR8,
    SQL_PG_LSN,
    SQL_ENUM, /* enum('label', ...): sorts by the labels' order */
    SQL_BIT,  /* bit(n) and bit varying(n): n is not checked */
    SQL_RECORD /* record(name TYPE, ...): a composite value */
} sql_type;

struct schema;

typedef struct schema_column {
    char *name;           /* malloc'd: any length, never cut */
    sql_type sql;
    const char *sql_name; /* canonical name, for messages */
    int desc;             /* 1 for DESC */
    int nulls_first;      /* PostgreSQL's default: DESC is NULLS FIRST */
    int order_given;      /* ASC/DESC/NULLS written explicitly */
    ordo_type type;       /* the part type in the chosen format */
    uint8_t time_unit;    /* for TIME parts */
    uint8_t order;        /* ordo_order, for the ordered format */
    char *type_spec;      /* enum and record: the type as written, "enum('a','b')" (malloc'd) */
    struct schema *fields; /* SQL_RECORD: its fields (malloc'd) */
    char **labels;        /* SQL_ENUM: the labels, rank order (malloc'd) */
    size_t nlabels;
} schema_column;

typedef struct schema {
    schema_column *cols;
    size_t ncols;
} schema;

/* Parses text into s (malloc'd columns) for the key format `format`
 * ("lexkey", "lexkey-legacy", "ordered"). On error returns 0 and writes a message
 * naming the column into err. */
int schema_parse(const char *text, const char *format, schema *s, char *err, size_t errlen);
void schema_free(schema *s);
/* Parses a key spec "COL [ASC|DESC] [NULLS FIRST|LAST], ..." over the
 * columns of `table` into key (the columns' types in `format`, with their
 * orders); columns[i] is the table column of key column i (room for
 * table->ncols + the number of commas). 0 with a message on error. */
int schema_key(const schema *table, const char *text, const char *format, schema *key,
               size_t *columns, char *err, size_t errlen);
/* ordo_format for a format name, or 0. */
ordo_format schema_format(const char *name);

#endif
