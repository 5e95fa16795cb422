"""The package imports and ordo.Error carries a status."""
import ordo


def test_version_is_the_projects():
    parts = ordo.__version__.split(".")
    assert len(parts) == 3 and all(p.isdigit() for p in parts)


def test_impl_name_is_a_known_implementation():
    assert ordo.impl_name() in {"scalar", "portable", "sse41", "avx2", "avx512", "neon"}


def test_error_has_the_fields():
    e = ordo.Error("x")
    assert isinstance(e, Exception)
    for name in ("status", "code", "file", "line", "column", "partition"):
        assert getattr(e, name) is None
