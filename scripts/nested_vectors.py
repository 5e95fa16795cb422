#!/usr/bin/env python3
"""Prints SPEC.md §14.18's vectors of arrays of enums, records and ranges from
the SPEC's rules alone (§14.14 records inline, §14.17 ranges, §14.18 arrays,
§14.2 presence bytes): a model separate from ordo's C code, so that the
vectors in SPEC.md and tests/test_nested_elements_lib.c do not come from the
code they test."""
import struct
def esc(b): return b.replace(b'\x00', b'\x00\xff')
def nest(x): return b'\x00' + esc(x) + b'\x00\x00'
def u8(v): return bytes([0, v])
def i32(v): return b'\x00' + struct.pack('>I', (v + 2**31) & 0xffffffff)
def f_int(v): return b'\x01' if v is None else i32(v)
def f_text(s): return b'\x01' if s is None else b'\x00' + esc(s.encode()) + b'\x00\x00'
def f_enum(r): return b'\x01' if r is None else b'\x00' + struct.pack('>I', r)
def f_record(fields):  # fields: list of already-encoded ASC NL fields; None = NULL record
    return b'\x01' if fields is None else b'\x00' + b''.join(fields)
def f_range(r):  # r: None (NULL), 'empty', or (lo, lo_inc, hi, hi_inc) with values as field bytes or None (inf)
    if r is None: return b'\x01'
    if r == 'empty': R = u8(0)
    else:
        lo, li, hi, hinc = r
        L = u8(0) if lo is None else u8(1) + nest(lo) + u8(0 if li else 1)
        U = u8(1) if hi is None else u8(0) + nest(hi) + u8(1 if hinc else 0)
        R = u8(1) + nest(L) + nest(U)
    return b'\x00' + esc(R) + b'\x00\x00'
def f_array(elems):  # elems: list of encoded ASC NL fields; None = NULL array
    if elems is None: return b'\x01'
    c = len(elems)
    A = nest(b''.join(elems)) + i32(c) + i32(1 if c else 0)
    if c: A += i32(c) + i32(1)
    return b'\x00' + esc(A) + b'\x00\x00'
def order(field, o):  # o: 0 ASC NF, 1 ASC NL, 2 DESC NF, 3 DESC NL ; field given ASC NL
    nf = o in (0, 2); desc = o >= 2
    if field == b'\x01': return b'\x00' if nf else b'\x01'
    pb = b'\x01' if nf else b'\x00'
    body = field[1:]
    if desc: body = bytes(x ^ 0xff for x in body)
    return pb + body
H = lambda b: b.hex()
V = {
 "enum('sad','ok','happy')[] {happy,NULL,sad}": f_array([f_enum(2), f_enum(None), f_enum(0)]),
 "record(a integer, b text)[] {\"(1,a)\",\"(2,)\"}": f_array([f_record([f_int(1), f_text('a')]), f_record([f_int(2), f_text(None)])]),
 "record(a integer, b text)[] {NULL,\"(,)\"}": f_array([f_record(None), f_record([f_int(None), f_text(None)])]),
 "int4range[] {\"[1,5)\",empty}": f_array([f_range((i32(1), True, i32(5), False)), f_range('empty')]),
 "int4range[] {NULL,\"(,)\"}": f_array([f_range(None), f_range((None, False, None, False))]),
}
for k, v in V.items():
    print(k)
    for o in (1, 2):
        print('  order', o, H(order(v, o)))
