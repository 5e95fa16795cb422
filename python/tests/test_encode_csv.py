"""ordo.encode_csv: the CLI's bytes, and errors at their positions."""
import subprocess

import numpy as np
import pytest

import ordo
from cli_oracle import SQL, arrow_texts, cli_path, csv_field, random_table


def write_csv(path, table, header=False):
    cols = [arrow_texts(table.column(c).combine_chunks()) for c in table.column_names]
    with open(path, "w", encoding="utf-8", newline="") as f:
        if header:
            f.write(",".join(table.column_names) + "\n")
        for row in zip(*cols):
            f.write(",".join(csv_field(v) for v in row) + "\n")


def cli_file_keys(path, schema, fmt, header=False):
    args = [cli_path(), "encode", "--schema", schema, "--format", fmt, "--output", "hex"]
    if header:
        args.append("--header")
    r = subprocess.run(args + [str(path)], capture_output=True, check=False)
    assert r.returncode == 0, r.stderr.decode()
    return [bytes.fromhex(line) for line in r.stdout.decode().splitlines()]


@pytest.mark.parametrize("fmt", ["ordered", "lexkey", "lexkey-legacy"])
def test_keys_equal_the_clis(tmp_path, fmt):
    t = random_table(np.random.default_rng(21), 2000, decimals=fmt == "ordered")
    path = tmp_path / "t.csv"
    write_csv(path, t)
    order = " DESC" if fmt == "ordered" else ""
    schema = ", ".join("%s %s%s" % (c, SQL[c], order if i % 2 else "")
                       for i, c in enumerate(t.column_names))
    want = cli_file_keys(path, schema, fmt)
    assert len(want) == 2000
    for threads in (None, 1, 3):
        assert ordo.encode_csv(path, schema, format=fmt, threads=threads).to_list() == want
    assert ordo.encode_csv(str(path), schema, format=fmt).to_list() == want
    # the rows' keys are those encode_keys gives the same table
    spec = ", ".join("%s%s" % (c, order if i % 2 else "") for i, c in enumerate(t.column_names))
    assert ordo.encode_keys(t, spec, format=fmt).to_list() == want


def test_header_and_key(tmp_path):
    t = random_table(np.random.default_rng(22), 300)
    path = tmp_path / "h.csv"
    write_csv(path, t, header=True)
    schema = ", ".join("%s %s" % (c, SQL[c]) for c in t.column_names)
    want = cli_file_keys(path, schema, "ordered", header=True)
    assert ordo.encode_csv(path, schema, header=True).to_list() == want
    key = "ts_ns DESC, txt, i8 ASC NULLS FIRST"
    got = ordo.encode_csv(path, schema, header=True, key=key).to_list()
    assert got == ordo.encode_keys(t, key).to_list()


def test_arrays_of_enums_records_ranges(tmp_path):
    path = tmp_path / "nested.csv"
    path.write_text('"{happy,NULL}","{""(1,a)"",NULL}","{""[1,5]"",empty}"\n'
                    '{},"{""(,)""}",\n'
                    ',,"{NULL,""(,3)""}"\n', encoding="utf-8")
    schema = ("e enum('sad', 'ok', 'happy')[] DESC, r record(a integer, b text)[], "
              "g int4range[] NULLS FIRST")
    want = cli_file_keys(path, schema, "ordered")
    assert len(want) == 3
    assert ordo.encode_csv(path, schema).to_list() == want


def test_a_bad_value_has_its_position(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("1,a\n2,b\nthree,c\n4,d\n")
    with pytest.raises(ordo.Error) as e:
        ordo.encode_csv(path, "n bigint, s text", threads=1)
    err = e.value
    assert err.status == "ORDO_ERR_BAD_INPUT" and err.code == 86
    assert err.file == str(path) and err.line == 3 and err.column == 1
    assert "n" in str(err)
    path.write_text("1,a\n2,b\n3\n")
    with pytest.raises(ordo.Error) as e:
        ordo.encode_csv(path, "n bigint, s text", threads=2)
    assert e.value.line == 3


def test_other_errors(tmp_path):
    with pytest.raises(ordo.Error) as e:
        ordo.encode_csv(tmp_path / "missing.csv", "n bigint")
    assert e.value.status == "ORDO_ERR_IO"
    path = tmp_path / "ok.csv"
    path.write_text("1\n")
    with pytest.raises(ordo.Error) as e:
        ordo.encode_csv(path, "n nosuchtype")
    assert e.value.status == "ORDO_ERR_INVALID_ARG" and "nosuchtype" in str(e.value)
    with pytest.raises(ordo.Error):
        ordo.encode_csv(path, "n bigint", key="m")
    with pytest.raises(ValueError):
        ordo.encode_csv(path, "n bigint", format="json")
    with pytest.raises(TypeError):
        ordo.encode_csv(path, None)
    with pytest.raises(ValueError):
        ordo.encode_csv(path, "n bigint", threads=-1)
    with pytest.raises(ValueError):
        ordo.encode_csv(path, "n bigint", threads=100000)
    assert ordo.encode_csv(path, "n bigint").to_list() == [b"\x00\x80" + b"\x00" * 6 + b"\x01"]
