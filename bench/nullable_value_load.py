"""The issue #28 case: 1 M rows of `id bigint, score double precision`
(19-digit ids, 17-digit doubles, 10 % NULL), loaded by ordo load from CSV
and by ordo.load from a pyarrow Table of the same rows, alternating, 3
rounds each (bench/RESULTS.md).

    PYTHONPATH=BUILD/python python bench/nullable_value_load.py BUILD/ordo"""
import os, subprocess, sys, tempfile, time, random, shutil
import pyarrow as pa, pyarrow.csv as pcsv, ordo
n = 1000000; r = random.Random(3)
tmp = tempfile.mkdtemp()
csv = os.path.join(tmp, "rows.csv")
with open(csv, "w") as f:
    for i in range(n):
        v = "" if r.random() < 0.1 else repr(r.uniform(-1e6, 1e6))
        f.write("%d,%s\n" % (r.randrange(-2**63, 2**63), v))
schema = "id bigint, score double precision"
t = pcsv.read_csv(csv, read_options=pcsv.ReadOptions(column_names=["id", "score"]),
                  convert_options=pcsv.ConvertOptions(column_types={"id": pa.int64(), "score": pa.float64()}))
res = {"cli": [], "arrow": []}
for k in range(3):
    for name in res:
        db = os.path.join(tmp, "db"); shutil.rmtree(db, ignore_errors=True)
        t0 = time.perf_counter()
        if name == "cli":
            subprocess.run([sys.argv[1], "load", "--db", db, "--schema", schema, "--key", "id", "--quiet", "--on-duplicate", "first", csv], check=True)
        else:
            ordo.load(t, db, schema=schema, key="id", on_duplicate="first")
        res[name].append(time.perf_counter() - t0)
print({k: ["%.3f" % x for x in v] for k, v in res.items()}, "ratio best arrow/cli %.2f" % (min(res["arrow"]) / min(res["cli"])))
shutil.rmtree(tmp)
