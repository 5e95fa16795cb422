-- The ordo extension: keys in ordo's ordered format (SPEC.md), made inside
-- PostgreSQL, byte for byte what the library and `ordo encode` make.
\echo Use "CREATE EXTENSION ordo" to load this file. \quit

-- The values' key in one bytea: bytea compares as memcmp, so ORDER BY the key
-- is ORDER BY the values in the spec's orders ('DESC, ASC NULLS FIRST', one
-- per value; '' for ASC on all). Text takes each value's own collation, as
-- ORDER BY does. IMMUTABLE as PostgreSQL's own text comparison is (every
-- btree index on text relies on it): a collation whose recorded version
-- differs from the one ordo's collator reports is an error, not other keys.
-- ordo_key(spec, VARIADIC array) keys the array's elements as the values.
CREATE FUNCTION ordo_key(spec text, VARIADIC "any")
RETURNS bytea
AS 'MODULE_PATHNAME', 'ordo_sql_key'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

-- The key of a whole row: its columns as the values, in order (spec: one
-- order per column, or ''). A NULL row has no key (NULL). The spec is a
-- cstring so that ordo_key('DESC', col) with a text column still resolves
-- to the form above: ordo_key(row, 'DESC, ASC') with a literal spec.
CREATE FUNCTION ordo_key(r record, spec cstring)
RETURNS bytea
AS 'MODULE_PATHNAME', 'ordo_sql_key_row'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

-- The smallest key above every key that starts with the prefix, so that
-- k >= p AND k < ordo_prefix_upper_bound(p) is a prefix scan.
CREATE FUNCTION ordo_prefix_upper_bound(bytea)
RETURNS bytea
AS 'MODULE_PATHNAME', 'ordo_sql_prefix_upper_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- The values as a LexKey key (the `lexkey` format: no orders, text as its
-- bytes), for the types LexKey holds.
CREATE FUNCTION ordo_lexkey(VARIADIC "any")
RETURNS bytea
AS 'MODULE_PATHNAME', 'ordo_sql_lexkey'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

-- An ordered key's columns back, typed by the column definition list:
-- SELECT * FROM ordo_decode(k, 'score double precision DESC, id bigint')
--   AS (score double precision, id bigint).
-- STABLE: the values go through their types' input functions.
CREATE FUNCTION ordo_decode(key bytea, schema text)
RETURNS record
AS 'MODULE_PATHNAME', 'ordo_sql_decode'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

-- An ordered key field by field, as `ordo inspect` prints it.
CREATE FUNCTION ordo_inspect(key bytea, schema text)
RETURNS text
AS 'MODULE_PATHNAME', 'ordo_sql_inspect'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
