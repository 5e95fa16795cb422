"""ordo.encode_keys of CSVs that PostgreSQL's COPY wrote, for test_pg_ext.

One interpreter for all of test_pg_ext's cases: each line of stdin is a case,
four fields separated by tabs: the path of a CSV of one column, its schema
("c <type>"), the key, and the file to write the keys to (one key in hex a
line). Every column is read as text (an unquoted empty field is NULL, a quoted
one the empty string, as COPY writes them) and typed by ordo from the schema,
so the keys are the Python package's of the very values the server keyed. A
case that fails is reported on stderr (and writes no file); the others still
run, and the exit status is 1 if any failed."""
import sys

import pyarrow as pa
import pyarrow.csv as pacsv

import ordo


def encode(path: str, schema: str, key: str) -> list[str]:
    """The keys in hex of the one-column CSV at path."""
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
    return [k.hex() for k in ordo.encode_keys(table, key, schema=schema).to_list()]


def main() -> int:
    failed = 0
    for n, line in enumerate(sys.stdin, 1):
        path, schema, key, out = line.rstrip("\n").split("\t")
        try:
            keys = encode(path, schema, key)
        except Exception as e:  # every case reports; the test names the ones that differ
            print(f"case {n} ({path}, {schema!r}, {key!r}): {type(e).__name__}: {e}", file=sys.stderr)
            failed += 1
            continue
        with open(out, "w", encoding="ascii") as f:
            f.writelines(k + "\n" for k in keys)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
