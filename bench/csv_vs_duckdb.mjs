// The DuckDB side of bench/csv_vs_duckdb.sh, and two helpers for it.
//
//   node csv_vs_duckdb.mjs time KIND FILE          one timed run of each query, as JSON
//   node csv_vs_duckdb.mjs order KIND FILE KEYS    do ordo's keys (KEYS: --output raw of FILE)
//                                                  sort the rows as DuckDB's sort keys do?
//   node csv_vs_duckdb.mjs count < KEYS            rows in an `ordo encode --output raw` stream
//
// KIND is numeric or mixed (the schemas below; the script gives ordo the same
// ones). DUCKDB_NODE_DIR names the folder where @duckdb/node-api was installed
// from npm (a temporary folder: nothing from npm belongs in the repository).
//
// DuckDB runs with one thread (SET threads=1) on an in-memory database. The
// queries read the CSV in PostgreSQL's COPY form: no header, comma, double
// quotes, "" inside quotes for a quote, an unquoted empty field is NULL and a
// quoted one ("") is the empty string; the column types are given, nothing is
// sniffed. Each timing is the wall time of one query, from submitting it to
// its one-row result (the process start and the connection are not counted).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const SCHEMAS = {
    numeric: [['a', 'BIGINT'], ['b', 'DOUBLE'], ['c', 'INTEGER']],
    mixed: [['name', 'VARCHAR'], ['id', 'BIGINT'], ['active', 'BOOLEAN'], ['uid', 'UUID'],
            ['score', 'DOUBLE'], ['city', 'VARCHAR']],
};

function die(msg) {
    process.stderr.write(`csv_vs_duckdb.mjs: ${msg}\n`);
    process.exit(2);
}

function quoteLit(s) { return `'${s.replaceAll("'", "''")}'`; }

function readCsv(kind, file) {
    const cols = SCHEMAS[kind].map(([n, t]) => `${quoteLit(n)}: ${quoteLit(t)}`).join(', ');
    return `read_csv(${quoteLit(file)}, columns = {${cols}}, header = false, auto_detect = false, ` +
        `delim = ',', quote = '"', escape = '"', nullstr = '', allow_quoted_nulls = false)`;
}

// create_sort_key(col1, 'ASC NULLS LAST', col2, 'ASC NULLS LAST', ...): PostgreSQL's
// default order for every column, which is also what ordo is given.
function sortKeyExpr(kind) {
    return `create_sort_key(${SCHEMAS[kind].map(([n]) => `"${n}", 'ASC NULLS LAST'`).join(', ')})`;
}

async function connect() {
    const dir = process.env.DUCKDB_NODE_DIR;
    if (!dir) die('DUCKDB_NODE_DIR is not set');
    const req = createRequire(path.join(path.resolve(dir), 'package.json'));
    const { DuckDBInstance } = await import(pathToFileURL(req.resolve('@duckdb/node-api')).href);
    const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
    const con = await instance.connect();
    await con.run('SET threads = 1');
    const threads = (await con.runAndReadAll("SELECT current_setting('threads')")).getRows()[0][0];
    if (Number(threads) !== 1) die(`DuckDB runs with ${threads} threads, not 1`);
    const version = (await con.runAndReadAll('SELECT version()')).getRows()[0][0];
    return { con, version };
}

// Wall seconds, and the process's CPU seconds (user + system, every thread)
// over the same span: on a shared machine the CPU time of one thread's work
// is what the other workers disturb least.
async function timed(con, sql) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    const rows = (await con.runAndReadAll(sql)).getRows();
    const t1 = process.hrtime.bigint();
    const c = process.cpuUsage(c0);
    return { seconds: Number(t1 - t0) / 1e9, cpu: (c.user + c.system) / 1e6,
             row: rows[0].map((v) => String(v)) };
}

async function cmdTime(kind, file) {
    const { con, version } = await connect();
    const src = readCsv(kind, file);
    // Every key is built and its length summed, so none can be skipped.
    const sk = await timed(con, `SELECT count(*), sum(octet_length(${sortKeyExpr(kind)})) FROM ${src}`);
    // The reading alone: every column parsed and converted (a count of each).
    const rd = await timed(con,
        `SELECT count(*), ${SCHEMAS[kind].map(([n]) => `count("${n}")`).join(', ')} FROM ${src}`);
    process.stdout.write(JSON.stringify({
        version, sortkey_s: sk.seconds, sortkey_rows: Number(sk.row[0]), sortkey_bytes: Number(sk.row[1]),
        read_s: rd.seconds, read_rows: Number(rd.row[0]), sortkey_cpu_s: sk.cpu, read_cpu_s: rd.cpu,
    }) + '\n');
}

function splitRaw(buf) { // an `ordo encode --output raw` stream: 4-byte big-endian length, key
    const keys = [];
    let at = 0;
    while (at < buf.length) {
        if (at + 4 > buf.length) die('raw stream ends inside a length');
        const n = buf.readUInt32BE(at);
        if (at + 4 + n > buf.length) die('raw stream ends inside a key');
        keys.push(buf.subarray(at + 4, at + 4 + n));
        at += 4 + n;
    }
    return keys;
}

async function cmdOrder(kind, file, keysFile) {
    const ordo = splitRaw(readFileSync(keysFile));
    const { con } = await connect();
    const duck = (await con.runAndReadAll(`SELECT ${sortKeyExpr(kind)} FROM ${readCsv(kind, file)}`))
        .getRows().map((r) => Buffer.from(r[0].bytes));
    if (duck.length !== ordo.length) die(`${ordo.length} ordo keys but ${duck.length} DuckDB rows`);
    // Sort the rows by ordo's keys; then DuckDB's must rise where ordo's rise and
    // tie where they tie, pair by adjacent pair: the same order, ties included.
    const idx = [...ordo.keys()].sort((i, j) => Buffer.compare(ordo[i], ordo[j]) || i - j);
    let bad = 0;
    for (let k = 1; k < idx.length; k++) {
        const i = idx[k - 1], j = idx[k];
        const o = Buffer.compare(ordo[i], ordo[j]), d = Buffer.compare(duck[i], duck[j]);
        if (o !== d) {
            if (bad++ < 5)
                process.stderr.write(`rows ${i + 1} and ${j + 1} (1-based): ordo ${o}, DuckDB ${d}\n`);
        }
    }
    process.stdout.write(JSON.stringify({ rows: ordo.length, disagreements: bad }) + '\n');
    if (bad) process.exit(1);
}

async function cmdCount() {
    let rows = 0, need = 0, len = Buffer.alloc(4), have = 0; // have: bytes of a split length
    for await (const chunk of process.stdin) {
        let at = 0;
        while (at < chunk.length) {
            if (need > 0) { // inside a key
                const take = Math.min(need, chunk.length - at);
                need -= take;
                at += take;
            } else if (have === 0 && at + 4 <= chunk.length) {
                need = chunk.readUInt32BE(at);
                at += 4;
                rows++;
            } else { // a length split across chunks
                len[have++] = chunk[at++];
                if (have === 4) {
                    need = len.readUInt32BE(0);
                    have = 0;
                    rows++;
                }
            }
        }
    }
    if (need || have) die('raw stream ends inside a key');
    process.stdout.write(`${rows}\n`);
}

const [cmd, kind, file, keys] = process.argv.slice(2);
if (cmd === 'count') await cmdCount();
else if (!(kind in SCHEMAS) || !file) die('usage: time|order KIND FILE [KEYS], or count < KEYS');
else if (cmd === 'time') await cmdTime(kind, file);
else if (cmd === 'order' && keys) await cmdOrder(kind, file, keys);
else die(`unknown command '${cmd}'`);
