"""ordo.encode_keys of a CSV that PostgreSQL's COPY wrote, one key in hex a line.

Used by test_pg_ext: argv = the path of a CSV of one column, its schema
("c <type>"), the key. Every column is read as
text (an unquoted empty field is NULL, a quoted one the empty string, as
COPY writes them) and typed by ordo from the schema, so the keys are the
Python package's of the very values the server keyed."""
import sys

import pyarrow as pa
import pyarrow.csv as pacsv

import ordo

path, schema, key = sys.argv[1:4]
names = [schema.split()[0]]  # one column: a type may hold commas (enum)
table = pacsv.read_csv(
    path,
    read_options=pacsv.ReadOptions(column_names=names),
    # a one-column row whose value is NULL is an empty line
    parse_options=pacsv.ParseOptions(ignore_empty_lines=False),
    convert_options=pacsv.ConvertOptions(
        column_types={n: pa.string() for n in names},
        strings_can_be_null=True,
        quoted_strings_can_be_null=False,
        null_values=[""],
    ),
)
for k in ordo.encode_keys(table, key, schema=schema).to_list():
    print(k.hex())
