"""The packed format from Python: keys, loads and scans equal the CLI's."""
import pyarrow as pa

import ordo
from load_util import raw, run_cli, write_csv

SCHEMA = "tag integer, a ubigint, b ubigint, note text"
KEY = "a, b DESC"


def rows(n):
    return [[str(i % 5), str((i * 7919) % 1000), str(i), f"n{i}" if i % 3 else None]
            for i in range(n)]


def test_csv_load_and_scan_equal_the_clis(tmp_path):
    csv_path = write_csv(tmp_path / "rows.csv", rows(400))
    mine = ordo.load(str(csv_path), tmp_path / "py", schema=SCHEMA, key=KEY, tag=7,
                     format="packed")
    run_cli("load", "--db", tmp_path / "cli", "--schema", SCHEMA, "--key", KEY, "--tag", 7,
            "--format", "packed", csv_path)
    assert mine["rows"] == 400
    stored = raw(tmp_path / "py")
    assert stored == raw(tmp_path / "cli")
    data = [(k, v) for k, v in stored if k[:1] == b"\x07"]
    assert len(data) == 400 and all(len(k) == 1 + 8 + 8 for k, _ in data)
    # the value holds the columns the key does not give back: tag and note
    t = ordo.scan(tmp_path / "py", tag=7)
    cli = run_cli("scan", "--db", tmp_path / "cli", "--tag", 7).stdout.splitlines()
    assert t.num_rows == 400 and len(cli) == 400
    first = cli[0].split(",")
    assert [str(t.column(c)[0].as_py()) for c in ("tag", "a", "b")] == first[:3]


def test_table_load_equals_the_csv_load(tmp_path):
    data = rows(300)
    t = pa.table({"tag": pa.array([int(r[0]) for r in data], pa.int32()),
                  "a": pa.array([int(r[1]) for r in data], pa.uint64()),
                  "b": pa.array([int(r[2]) for r in data], pa.uint64()),
                  "note": pa.array([r[3] for r in data], pa.string())})
    ordo.load(t, tmp_path / "table", key=KEY, schema=SCHEMA, tag=2, format="packed")
    ordo.load(str(write_csv(tmp_path / "rows.csv", data)), tmp_path / "csv", schema=SCHEMA,
              key=KEY, tag=2, format="packed")
    assert raw(tmp_path / "table") == raw(tmp_path / "csv")


def test_encode_keys_packed_and_a_null_refused():
    t = pa.table({"a": pa.array([1, 2], pa.uint64()), "b": pa.array([5, None], pa.uint64())})
    keys = ordo.encode_keys(t.slice(0, 1), "a, b DESC", format="packed")
    assert keys[0] == bytes.fromhex("0000000000000001" "fffffffffffffffa")
    try:
        ordo.encode_keys(t, "a, b", format="packed")
    except ordo.Error as e:
        assert e.status == "ORDO_ERR_NULL_VALUE" and "'b'" in str(e)
    else:
        raise AssertionError("a NULL in a packed key was accepted")
