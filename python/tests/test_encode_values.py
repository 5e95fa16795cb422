"""ordo._encode.encode: the contract the loaders use (keys, values in the
value form of SPEC.md §15.2, the schema text, the key spec)."""
import datetime

import numpy as np
import pyarrow as pa

import ordo
from cli_oracle import SQL, cli_keys, random_table, value_fields

DATA = {
    "id": [2, 1, None],
    "name": ["x", "", None],
    "score": [1.5, 100.0, float("nan")],
    "d": [datetime.date(2020, 1, 1), None, datetime.date(1, 1, 1)],
    "ok": [True, None, False],
    "blob": [b"\x00", None, b""],
    "t": [datetime.datetime(2021, 1, 2, 3, 4, 5, 6), None, datetime.datetime(1999, 1, 1)],
}


def test_ordered_values_hold_the_other_columns():
    keys, values, schema, spec = ordo._encode.encode(DATA, "id DESC", values=True)
    assert spec == "id DESC"
    assert schema == ("id bigint, name text, score double precision, d date, ok boolean, "
                      "blob bytea, t timestamp")
    assert keys.to_list() == ordo.encode_keys(DATA, "id DESC").to_list()
    assert isinstance(values, ordo.Keys) and len(values) == 3
    assert [value_fields(v) for v in values] == [
        ["x", "1.5", "2020-01-01", "t", "\\x00", "2021-01-02 03:04:05.000006"],
        ["", "100", None, None, None, None],
        [None, "NaN", "0001-01-01", "f", "\\x", "1999-01-01 00:00:00"],
    ]
    assert values[0][:2] == b"\x02x" and values[1][:1] == b"\x01"  # '' is not NULL
    _, none, _, _ = ordo._encode.encode(DATA, "id DESC")
    assert none is None


def test_lexkey_values_hold_every_column():
    data = {k: v for k, v in DATA.items() if k != "d"}
    _, values, _, spec = ordo._encode.encode(data, "name, id", format="lexkey", values=True)
    assert spec == "name, id"
    assert value_fields(values[0]) == ["2", "x", "1.5", "t", "\\x00",
                                       "2021-01-02 03:04:05.000006"]
    assert value_fields(values[2])[:3] == [None, None, "NaN"]


def test_a_key_of_every_column_leaves_empty_values():
    _, values, _, spec = ordo._encode.encode({"a": [1, 2], "b": ["x", "y"]}, None, values=True)
    assert spec == "a, b" and values.to_list() == [b"", b""]


def test_value_texts_load_back_to_the_same_values():
    """The texts of the value form, read by the CLI, give the keys of the
    same columns: they are PostgreSQL's text of the values."""
    t = random_table(np.random.default_rng(11), 200)
    key = "i64 DESC, txt"
    _, values, schema, _ = ordo._encode.encode(t, key, values=True)
    others = [c for c in t.column_names if c not in ("i64", "txt")]
    rows = [value_fields(v) for v in values]
    assert all(len(r) == len(others) for r in rows)
    want = cli_keys(", ".join("%s %s" % (c, SQL[c]) for c in others), rows, "ordered")
    assert ordo.encode_keys(t.select(others), None).to_list() == want


def test_the_schema_text_loads_in_the_cli():
    t = random_table(np.random.default_rng(12), 20)
    _, _, schema, _ = ordo._encode.encode(t, "i8", values=True)
    rows = [[None] * t.num_columns]
    assert cli_keys(schema, rows, "ordered") == [b"\x01" * t.num_columns]


def test_quoted_names():
    data = {"player id": [1, 2], "2nd": ["a", "b"], "ok_name": [True, False]}
    keys, _, schema, spec = ordo._encode.encode(data, None)
    assert schema == '"player id" bigint, "2nd" text, ok_name boolean'
    assert spec == '"player id", "2nd", ok_name'
    by_2nd = ordo.encode_keys(data, '"2nd" DESC', schema=schema).to_list()
    assert by_2nd[0] > by_2nd[1]
    want = cli_keys('"player id" bigint, "2nd" text, ok_name boolean',
                    [["1", "a", "t"], ["2", "b", "f"]], "ordered")
    assert keys.to_list() == want
    assert pa.array(keys).to_pylist() == want


def test_numeric_values_keep_their_text():
    """A numeric value column keeps its own text (a decimal's scale, as
    PostgreSQL prints numeric(p, s) and as ordo load keeps a CSV field);
    its key, which keeps the value, decodes without the trailing zeros."""
    from decimal import Decimal

    t = pa.table({"id": pa.array([1, 2, 3, 4]),
                  "d": pa.array([Decimal("13.50"), Decimal("-0.10"), None, Decimal("7")],
                                pa.decimal128(10, 2))})
    _, values, schema, _ = ordo._encode.encode(t, "id", values=True)
    assert schema == "id bigint, d numeric"
    assert [value_fields(v) for v in values] == [["13.50"], ["-0.10"], [None], ["7.00"]]
    lists = {"id": [1, 2], "d": [Decimal("1.500"), Decimal("NaN")]}
    _, values, _, _ = ordo._encode.encode(lists, "id", schema="id bigint, d numeric", values=True)
    assert [value_fields(v) for v in values] == [["1.500"], ["NaN"]]
    _, values, _, _ = ordo._encode.encode(t, "d, id", values=True)
    assert [value_fields(v) for v in values] == [[], [], [], []]  # decoded from the key
