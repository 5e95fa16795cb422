#!/usr/bin/env python3
"""Every fenced code block of README.md and docs/*.md runs, by its info string.

The blocks of one file run in document order in one temporary folder, so a
block may use the files an earlier block of its file made:

  sh, bash   a script (bash -euo pipefail), the built `ordo` first on PATH
  console    a transcript: each `$ ` line (with its `\\` continuation lines)
             is run as above, stdout and stderr together, and must print
             the lines that follow it; `…` in an expected line matches any
             text (times, rates)
  python     run by the build's interpreter with the built package on
             PYTHONPATH
  c          a whole program (a line starts "int main("), or statements,
             wrapped in main() with the block's #include lines first;
             compiled against the source include/ alone with warnings as
             errors, linked against the built libraries, run; a printf
             line whose comment is /* TEXT */ must print TEXT
  text       output, usage lines, declarations: not run
  LANG norun a block of any language above (or sql) that needs what a test
             cannot have (sudo, a PostgreSQL server, a cluster, an hour):
             not run, and listed as such

Any other info string (or none) fails the test. Blocks that need what this
build lacks (the tool: a block that runs `ordo `, RocksDB, the Python package) are listed as not run.
python/README.md's blocks run too. Also: README.md stays under 12 KB, and
every relative link of README.md, SPEC.md, python/README.md and docs/*.md
resolves (files, and #anchors of Markdown headings).

usage: test_docs_cli.py --root SRC --include DIR --build DIR --cc CC
                        [--ordo PATH] [--rocksdb 0|1] [--pythonpath DIR]
"""
import argparse
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import tempfile

RUNS = {"sh", "bash", "console", "python", "c"}
NORUN_LANGS = RUNS | {"sql"}
ROCKSDB_SH = re.compile(r"\bordo (load|scan|sort|tables)\b|--db\b")
ROCKSDB_PY = re.compile(r"ordo\.(load|scan|open|spark|dask|sort|sort_indices|Db)\b|\.argsort\(")
ROCKSDB_C = re.compile(r"ordo_(load|table)\.h")
README_LIMIT = 12 * 1024


def blocks(path):
    """(line, info, text) of each fenced block."""
    out, cur = [], None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            s = line.rstrip("\n")
            if cur is None:
                if s.startswith("```"):
                    cur = (n, s[3:].strip(), [])
            elif s.startswith("```"):
                out.append((cur[0], cur[1], "\n".join(cur[2]) + "\n"))
                cur = None
            else:
                cur[2].append(s)
    if cur is not None:
        out.append((cur[0], None, ""))
    return out


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    seen, out = {}, set()
    in_code = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                in_code = not in_code
            m = None if in_code else re.match(r"#{1,6} (.*)", line)
            if m:
                base = slug(m.group(1))
                k = seen.get(base, 0)
                seen[base] = k + 1
                out.add(base if k == 0 else f"{base}-{k}")
    return out


def check_links(root, files):
    bad = []
    for path in files:
        text = open(path, encoding="utf-8").read()
        text = re.sub(r"```.*?```", "", text, flags=re.S)   # code is not links
        text = re.sub(r"`[^`\n]*`", "", text)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
            if not os.path.exists(dest):
                bad.append(f"{os.path.relpath(path, root)}: link to {target}: no {os.path.relpath(dest, root)}")
            elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                bad.append(f"{os.path.relpath(path, root)}: link to {target}: no heading #{anchor}")
    return bad


def env_for(args, work):
    env = dict(os.environ)
    if args.ordo:
        env["PATH"] = os.path.dirname(os.path.abspath(args.ordo)) + os.pathsep + env["PATH"]
    if args.pythonpath:
        env["PYTHONPATH"] = args.pythonpath
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["LD_LIBRARY_PATH"] = args.build
    env["HOME"] = work
    env["PYSPARK_PYTHON"] = sys.executable  # Spark's Python workers: this interpreter, as a venv's
    return env


def run(cmd, work, env, stdin=None):
    return subprocess.run(cmd, cwd=work, env=env, input=stdin, capture_output=True, text=True, timeout=300)


def console(text, work, env):
    """Errors of a transcript, or []."""
    steps, cmd = [], None
    for line in text.splitlines():
        if cmd is not None and cmd[-1].endswith("\\"):
            cmd.append(line)
        elif line.startswith("$ "):
            cmd = [line[2:]]
            steps.append((cmd, []))
        elif steps:
            steps[-1][1].append(line)
            cmd = None
        else:
            return ["output before the first $ line"]
    errs = []
    for cmd, want in steps:
        r = run(["bash", "-c", "\n".join(cmd) + " 2>&1"], work, env)  # as typed: no pipefail
        got = r.stdout.splitlines()
        if r.returncode != 0 and not want:
            errs.append(f"$ {cmd[0]}: exit status {r.returncode}: {r.stdout}")
            continue
        ok = len(got) == len(want) and all(
            g == w or ("…" in w and fnmatch.fnmatchcase(g, w.replace("[", "[[]").replace("…", "*")))
            for g, w in zip(got, want))
        if not ok:
            errs.append(f"$ {cmd[0]}\nwanted:\n" + "\n".join(want) + "\ngot:\n" + r.stdout)
    return errs


def c_block(args, text, work, env, n):
    src = os.path.join(work, f"block{n}.c")
    lines = text.splitlines()
    with open(src, "w") as f:
        if any(l.startswith("int main(") for l in lines):  # a whole program: as written
            f.write(text)
        else:
            f.write("#include <stdbool.h>\n#include <stdio.h>\n")
            f.writelines(l + "\n" for l in lines if l.startswith("#include"))
            f.write("__attribute__((unused)) static void use(const void *k, size_t n, unsigned long long line)\n"
                    "{ (void)k, (void)n, (void)line; }\nint main(void) {\n")
            f.writelines(l + "\n" for l in lines if not l.startswith("#include"))
            f.write("return 0; }\n")
    exe = os.path.join(work, f"block{n}")
    libs = ["-lordo_table", "-lordo_ingest", "-lordo"]
    r = run([args.cc, "-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-I", args.include,
             src, "-o", exe, "-L", args.build] + libs, work, env)
    if r.returncode != 0:
        return [f"does not build:\n{r.stdout}{r.stderr}"]
    r = run([exe], work, env)
    if r.returncode != 0:
        return [f"exit status {r.returncode}: {r.stdout}{r.stderr}"]
    want = [m.group(1) for m in re.finditer(r"printf\(.*/\* (.*) \*/$", text, re.M)]
    if want and r.stdout.splitlines() != want:
        return [f"printed {r.stdout!r}, its comments say {want!r}"]
    return []


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--root", required=True)
    p.add_argument("--include", required=True)
    p.add_argument("--build", required=True)
    p.add_argument("--cc", required=True)
    p.add_argument("--ordo", default="")
    p.add_argument("--rocksdb", default="0")
    p.add_argument("--pythonpath", default="")
    args = p.parse_args()
    root = os.path.abspath(args.root)
    docs = sorted(os.path.join(root, "docs", f) for f in os.listdir(os.path.join(root, "docs")) if f.endswith(".md"))
    files = [os.path.join(root, "README.md")] + docs + [os.path.join(root, "python", "README.md")]
    failures, counts = [], {"run": 0, "not run": 0}

    size = os.path.getsize(files[0])
    if size >= README_LIMIT:
        failures.append(f"README.md is {size} bytes, over {README_LIMIT}")
    failures += check_links(root, files + [os.path.join(root, "SPEC.md")])

    rocksdb = args.rocksdb in ("1", "ON", "TRUE", "YES")
    for path in files:
        rel = os.path.relpath(path, root)
        work = tempfile.mkdtemp(prefix="ordo-docs-")
        try:
            env = env_for(args, work)
            for n, (line, info, text) in enumerate(blocks(path), 1):
                where = f"{rel}:{line}"
                words = (info or "").split()
                lang = words[0] if words else ""
                norun = words[1:] == ["norun"]
                if info is None:
                    failures.append(f"{where}: the block is not closed")
                    continue
                if lang not in RUNS | {"text"} and not (norun and lang in NORUN_LANGS) or \
                        (words[1:] and not norun) or (lang == "text" and words[1:]):
                    failures.append(f"{where}: unknown info string {info!r} (sh, bash, console, python, c, text, or LANG norun)")
                    continue
                why = None
                if lang == "text" or norun:
                    why = "marked " + info
                elif lang in ("sh", "bash", "console") and not args.ordo and re.search(r"\bordo ", text):
                    why = "this build has no tool"
                elif lang in ("sh", "bash", "console") and not rocksdb and ROCKSDB_SH.search(text):
                    why = "this build has no RocksDB"
                elif lang == "python" and not args.pythonpath:
                    why = "this build has no Python package"
                elif lang == "python" and not rocksdb and ROCKSDB_PY.search(text):
                    why = "this build has no RocksDB"
                elif lang == "c" and not rocksdb and ROCKSDB_C.search(text):
                    why = "this build has no RocksDB"
                if why:
                    print(f"not run: {where} ({why})")
                    counts["not run"] += 1
                    continue
                if lang in ("sh", "bash"):
                    r = run(["bash", "-euo", "pipefail", "-c", text], work, env)
                    errs = [] if r.returncode == 0 else [f"exit status {r.returncode}:\n{r.stdout}{r.stderr}"]
                elif lang == "console":
                    errs = console(text, work, env)
                elif lang == "python":
                    r = run([sys.executable, "-c", text], work, env)
                    errs = [] if r.returncode == 0 else [f"exit status {r.returncode}:\n{r.stdout}{r.stderr}"]
                else:
                    errs = c_block(args, text, work, env, n)
                counts["run"] += 1
                for e in errs:
                    failures.append(f"{where} ({lang}): {e}\n" + "".join("  | " + l + "\n" for l in text.splitlines()))
        finally:
            shutil.rmtree(work, ignore_errors=True)
    for f in failures:
        print("FAIL: " + f)
    print(f"{counts['run']} blocks run, {counts['not run']} not run, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
