"""Bad data and bad arguments: clear exceptions, never a crash."""
import datetime

import numpy as np
import pyarrow as pa
import pytest

import ordo


def test_a_bad_value_names_its_column_and_row():
    data = {"id": ["a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "nope"], "n": [1, 2]}
    with pytest.raises(ordo.Error, match="column 'id', row 1") as e:
        ordo.encode_keys(data, "id", schema="id uuid, n bigint")
    assert e.value.status == "ORDO_ERR_INVALID_VALUE"
    assert e.value.line == 2 and e.value.column == 1
    with pytest.raises(ordo.Error, match="column 'n', row 0") as e:
        ordo.encode_keys({"id": [1], "n": ["x"]}, "n", schema="id bigint, n bigint")
    assert e.value.column == 2


def test_out_of_range_instants():
    far = pa.table({"t": pa.array([0, 2**62], pa.timestamp("us"))})
    with pytest.raises(ordo.Error, match="column 't', row 1") as e:
        ordo.encode_keys(far, "t", format="lexkey")  # past 2262 in nanoseconds
    assert e.value.status == "ORDO_ERR_OUT_OF_RANGE" and e.value.line == 2
    ordo.encode_keys(far.slice(0, 1), "t", format="lexkey")
    huge = pa.table({"d": pa.array([2**31 - 1], pa.int32()).cast(pa.date32())})
    with pytest.raises(ordo.Error, match="date out of range"):
        ordo.encode_keys(huge, "d")
    with pytest.raises(ordo.Error, match="out of range"):
        ordo.encode_keys(pa.table({"t": pa.array([2**63 - 1], pa.timestamp("s"))}), "t")


def test_bad_arguments():
    data = {"a": [1, 2]}
    with pytest.raises(ValueError, match="format"):
        ordo.encode_keys(data, "a", format="json")
    with pytest.raises(TypeError, match="key"):
        ordo.encode_keys(data, 1)
    with pytest.raises(TypeError, match="schema"):
        ordo.encode_keys(data, "a", schema=["a bigint"])
    with pytest.raises(TypeError, match="data"):
        ordo.encode_keys(42, "a")
    with pytest.raises(TypeError, match="column 'a'"):
        ordo.encode_keys({"a": object()}, "a")
    with pytest.raises(TypeError):
        ordo.encode_keys({1: [1]}, "a")
    with pytest.raises(ValueError, match="differ in length"):
        ordo.encode_keys({"a": [1, 2], "b": [1]}, "a")
    with pytest.raises(ValueError, match="no column 'b'"):
        ordo.encode_keys(data, "a", schema="a bigint, b text")
    with pytest.raises(ValueError, match="not in the schema"):
        ordo.encode_keys({"a": [1], "c": [2]}, "a", schema="a bigint")
    with pytest.raises(ValueError, match="double quote"):
        ordo.encode_keys({'a"b': [1]}, None)
    with pytest.raises(ValueError, match="no columns"):
        ordo.encode_keys({}, None)
    with pytest.raises(ValueError):
        ordo.encode_keys({"a": np.zeros((2, 2))}, "a")


def test_bad_schemas_and_keys_are_ordo_errors():
    with pytest.raises(ordo.Error, match="key") as e:
        ordo.encode_keys({"a": [1]}, "b")
    assert e.value.status == "ORDO_ERR_INVALID_ARG"
    with pytest.raises(ordo.Error, match="schema"):
        ordo.encode_keys({"a": [1]}, "a", schema="a nosuchtype")
    with pytest.raises(ordo.Error):  # the LexKey formats have no orders
        ordo.encode_keys({"a": [1]}, "a DESC", format="lexkey")
    with pytest.raises(ordo.Error):  # nor numeric
        ordo.encode_keys({"a": [1]}, "a", schema="a numeric", format="lexkey")


def test_bad_python_values():
    with pytest.raises(TypeError, match="different kinds"):
        ordo.encode_keys({"a": [1, "x"]}, "a")
    with pytest.raises(TypeError, match="no ordo type"):
        ordo.encode_keys({"a": [object()]}, "a")
    with pytest.raises(ordo.Error, match="row 1"):
        ordo.encode_keys({"a": ["x", 3]}, "a", schema="a text")
    with pytest.raises(ordo.Error, match="row 0"):
        ordo.encode_keys({"a": [b"x"]}, "a", schema="a text")
    with pytest.raises(ordo.Error, match="UTF-8"):
        ordo.encode_keys({"a": ["\ud800"]}, "a")
    with pytest.raises(ordo.Error, match="row 2"):
        ordo.encode_keys({"a": [1, 2, "x"]}, "a", schema="a bigint")
    with pytest.raises(ordo.Error, match="row 1"):
        ordo.encode_keys({"a": [1, [2]]}, "a", schema="a bigint")
    # numbers as text read as the CLI reads them
    assert ordo.encode_keys({"a": ["12", None, 3]}, "a", schema="a bigint").to_list() == \
        ordo.encode_keys({"a": [12, None, 3]}, "a").to_list()
    assert ordo.encode_keys({"b": ["t", "off", None]}, "b", schema="b boolean").to_list() == \
        ordo.encode_keys({"b": [True, False, None]}, "b").to_list()
    with pytest.raises(ordo.Error):  # a naive datetime is not a timestamptz
        ordo.encode_keys({"a": [datetime.datetime(2020, 1, 1)]}, "a", schema="a timestamptz")


def test_a_consumed_stream_is_refused():
    t = pa.table({"a": [1]})
    cap = t.__arrow_c_stream__()
    ordo._ordo.encode(("stream", cap), "a", None, "ordered", False)
    with pytest.raises(ordo.Error, match="consumed") as e:  # a malformed capsule, as any other
        ordo._ordo.encode(("stream", cap), "a", None, "ordered", False)
    assert e.value.status == "ORDO_ERR_INVALID_VALUE"


def test_dictionaries_through_the_capsule_interface_alone_are_read():
    """A dictionary column of a bare capsule (no pyarrow object to decode it
    with) is read by the library as its values: keyed by label, or by its
    codes with categories="order", as a pyarrow one."""
    plain = pa.array(["pear", "apple", None, "fig", "apple"])
    t = pa.table({"a": plain.dictionary_encode()})

    class Stream:
        def __arrow_c_stream__(self, requested_schema=None):
            return t.__arrow_c_stream__(requested_schema)

    want = ordo.encode_keys(pa.table({"a": plain}), "a").to_list()
    assert ordo.encode_keys(Stream(), "a").to_list() == want
    assert ordo.encode_keys(Stream(), "a", schema="a text").to_list() == want
    by_code = ordo.encode_keys(Stream(), "a", categories="order").to_list()
    assert by_code == ordo.encode_keys(t, "a", categories="order").to_list()

def test_a_streams_bad_column_is_an_ordo_error(tmp_path):
    # the library says what a stream's fault was about (a type here); a
    # stream's faults stay ordo.Error, as ordo.load documents them
    with pytest.raises(ordo.Error):
        ordo.load(pa.table({"id": [[1]]}), tmp_path / "db", schema="id bigint", key="id")
    with pytest.raises(ordo.Error):
        ordo.load(pa.table({"id": ["x"]}), tmp_path / "db", schema="id bigint", key="id")
