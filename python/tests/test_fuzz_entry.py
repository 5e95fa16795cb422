"""The differential fuzzer of the Python entry (fuzz_entry.py), for a
bounded time: ORDO_PY_FUZZ_SECONDS (default 20) from a seed that changes
every run (ORDO_PY_FUZZ_SEED fixes it); a failure names the seed of the
case, which replays it alone."""
import os
import time

from cli_oracle import cli_path
import fuzz_entry


def test_encode_keys_equals_the_cli_on_random_tables(capsys):
    seconds = float(os.environ.get("ORDO_PY_FUZZ_SECONDS", "20"))
    seed = int(os.environ.get("ORDO_PY_FUZZ_SEED", str(int(time.time()) % 10**6 * 1000)))
    n = fuzz_entry.run(seconds, seed, cli_path())
    assert n > 0


def test_a_fixed_set_of_seeds():
    # the same cases on every run, whatever the time budget gave above
    fuzz_entry.run(0, 1, cli_path(), cases=150)
