#!/usr/bin/env python3
"""Generates the metadata cases (JSONL: {"id": ..., "meta": "<JSON text>"}; no "meta" = absent).
Deterministic: no randomness."""
import json, sys

VALUES = [
    'null', 'true', 'false',
    '0', '-1', '1', '1.0', '1e3', '2.5', '-0', '0.1', '1e-7',
    '9223372036854775807', '9223372036854775808', '-9223372036854775808',
    '-9223372036854775809', '1e21', '9007199254740993', '-1.5e300',
    '""', '"a"', '"1"', '"true"', '"null"', '"2020-01-01T00:00:00Z"',
    '[]', '[null]', '["a"]', '[1]', '[{}]',
    '{}', '{"a":"b"}', '{"a":1}', '{"a":null}',
]

TOP = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation',
       'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels',
       'annotations', 'ownerReferences', 'finalizers', 'managedFields',
       # unknown / case variants as controls
       'x', 'Name', 'Labels']
OWNER = ['apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion', 'x', 'APIVersion']
MANAGED = ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource',
           'x', 'FieldsV1']

TIMES = [
    "2020-01-01T00:00:00Z", "2020-01-01T00:00:00.5Z", "2020-01-01T00:00:00.123456789Z",
    "2020-01-01T00:00:00.1234567891Z", "2020-01-01T00:00:00.000000000000000000001Z",
    "2020-01-01T00:00:00.Z", "2020-01-01T00:00:00,5Z", "2020-01-01T00:00:00.0Z",
    "2020-01-01T00:00:00.999999999Z", "2020-01-01T00:00:00.9999999999Z",
    "2020-01-01T00:00:00+02:00", "2020-01-01T00:00:00-02:00", "2020-01-01T00:00:00+00:00",
    "2020-01-01T00:00:00-00:00", "2020-01-01T00:00:00+23:59", "2020-01-01T00:00:00-23:59",
    "2020-01-01T00:00:00+24:00", "2020-01-01T00:00:00+99:99", "2020-01-01T00:00:00+02:60",
    "2020-01-01T00:00:00+0200", "2020-01-01T00:00:00+02", "2020-01-01T00:00:00+2:00",
    "2020-01-01T00:00:00+02:0", "2020-01-01T00:00:00+02:00:00", "2020-01-01T00:00:00Z+02:00",
    "2020-01-01T00:00:00.5+02:00", "2020-01-01T12:00:00.5-00:30", "2020-01-01T00:00:00.+02:00",
    "2020-01-01t00:00:00z", "2020-01-01T00:00:00z", "2020-01-01t00:00:00Z", "2020-01-01T00:00:00.5z",
    "2020-01-01 00:00:00Z", "2020-01-01T00:00Z", "2020-01-01T00:00:00", "2020-01-01T00:00:00.5",
    "2020-01-01", "2020-1-1T00:00:00Z", "20-01-01T00:00:00Z", "2020-01-01T0:00:00Z",
    "2020-01-01T00:0:00Z", "2020-01-01T00:00:0Z",
    "2020-01-01T00:00:60Z", "2016-12-31T23:59:60Z", "2020-01-01T24:00:00Z", "2020-01-01T23:60:00Z",
    "0000-01-01T00:00:00Z", "0000-01-01T00:00:00+01:00", "0000-01-01T00:00:00-01:00",
    "0001-01-01T00:00:00Z", "0001-01-01T00:00:00+00:00", "0001-01-01T01:00:00+01:00",
    "0001-01-01T00:00:00.000000001Z", "9999-12-31T23:59:59Z", "9999-12-31T23:59:59-01:00",
    "1969-12-31T23:59:59.999999999Z", "1970-01-01T00:00:00Z",
    "2020-02-29T00:00:00Z", "2019-02-29T00:00:00Z", "2020-02-30T00:00:00Z", "2020-04-31T00:00:00Z",
    "2020-06-31T00:00:00Z", "2020-13-01T00:00:00Z", "2020-00-01T00:00:00Z", "2020-01-00T00:00:00Z",
    "2020-01-32T00:00:00Z", " 2020-01-01T00:00:00Z", "2020-01-01T00:00:00Z ", "", "x",
    "+2020-01-01T00:00:00Z", "-2020-01-01T00:00:00Z", "12020-01-01T00:00:00Z",
    "2020-01-01T00:00:00GMT", "2020-01-01T00:00:00UTC", "2020-01-01T00:00:00.a Z",
    "\u0662\u0660\u0662\u0660-01-01T00:00:00Z", "2020-01-01T00:00:00\u0000Z", "2020-01-01T00:00:00.5ZZ",
    "2020-01-01T00:00:00.-5Z", "2020_01-01T00:00:00Z", "2020-01-01X00:00:00Z",
]

cases = []
def add(cid, meta=None):
    c = {"id": cid}
    if meta is not None:
        json.loads(meta)  # sanity
        c["meta"] = meta
    cases.append(c)

# 1. every top-level field x every JSON value
for f in TOP:
    for v in VALUES:
        add(f"top/{f}={v}", '{%s:%s}' % (json.dumps(f), v))
# 2. list elements and nested fields
for v in VALUES:
    add(f"ownerReferences=[{v}]", '{"ownerReferences":[%s]}' % v)
    add(f"managedFields=[{v}]", '{"managedFields":[%s]}' % v)
    add(f"finalizers=[{v}]", '{"finalizers":[%s]}' % v)
    add(f"labels.a={v}", '{"labels":{"a":%s}}' % v)
    add(f"annotations.a={v}", '{"annotations":{"a":%s}}' % v)
for f in OWNER:
    for v in VALUES:
        add(f"ownerReferences[0].{f}={v}", '{"ownerReferences":[{%s:%s}]}' % (json.dumps(f), v))
for f in MANAGED:
    for v in VALUES:
        add(f"managedFields[0].{f}={v}", '{"managedFields":[{%s:%s}]}' % (json.dumps(f), v))
# 3. timestamps
for t in TIMES:
    s = json.dumps(t)
    add(f"time/creationTimestamp={s}", '{"creationTimestamp":%s}' % s)
    add(f"time/deletionTimestamp={s}", '{"deletionTimestamp":%s}' % s)
    add(f"time/managedFields[0].time={s}", '{"managedFields":[{"time":%s}]}' % s)
# 4. metadata itself
for v in VALUES + ['[42]', '"x"']:
    add(f"metadata={v}", v)
add("metadata absent")
# 5. hand-written
MISC = {
    # brief's examples
    "labels null": '{"labels":null}',
    "ownerReferences [null]": '{"ownerReferences":[null]}',
    "ownerReferences [{}]": '{"ownerReferences":[{}]}',
    "ownerReferences controller x": '{"ownerReferences":[{"controller":"x"}]}',
    "finalizers [null,a]": '{"finalizers":[null,"a"]}',
    "finalizers [a,1,b]": '{"finalizers":["a",1,"b"]}',
    "finalizers [a,null,b]": '{"finalizers":["a",null,"b"]}',
    "mf fieldsV1 null": '{"managedFields":[{"fieldsV1":null}]}',
    "mf fieldsV1 f:a": '{"managedFields":[{"fieldsV1":{"f:a":{}}}]}',
    "mf time frac offset": '{"managedFields":[{"time":"2020-01-01T00:00:00.5+02:00"}]}',
    "mf fieldsV1 numbers": '{"managedFields":[{"fieldsV1":{"a":[1,2.5,1.0,9223372036854775808,1e21,-0]}}]}',
    "mf fieldsV1 nested": '{"managedFields":[{"fieldsV1":{"f:metadata":{"f:labels":{"f:a":{}}},".":{}}}]}',
    "mf fieldsV1 string escapes": '{"managedFields":[{"fieldsV1":"<a&b>\\u2028"}]}',
    "mf full entry": '{"managedFields":[{"manager":"m","operation":"Update","apiVersion":"v1","time":"2020-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:a":{}},"subresource":"status"}]}',
    "mf two entries": '{"managedFields":[{"manager":"a"},{"manager":"b","x":1}]}',
    "mf [null,{}]": '{"managedFields":[null,{}]}',
    "or full": '{"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":"u","controller":true,"blockOwnerDeletion":false}]}',
    "or two, second bad": '{"ownerReferences":[{"name":"a"},{"name":1}]}',
    "or two unknowns": '{"ownerReferences":[{"x":1,"y":2},{"x":1}]}',
    "or Kind": '{"ownerReferences":[{"Kind":"a","kind":"b"}]}',
    "or nested obj unknown": '{"ownerReferences":[{"x":{"y":1}}]}',
    # unknowns
    "unknown Name": '{"Name":"a"}',
    "unknown NAME num": '{"NAME":1}',
    "unknown Labels": '{"Labels":{"a":"b"}}',
    "unknown many": '{"name":"a","x":1,"y":{"z":1},"Namespace":"n"}',
    "unknown metadata": '{"metadata":{}}',
    "unknown dotted": '{"a.b":1,"[0]":2,"":3,"a\\"b":4,"a b":5}',
    "unknown unicode order": '{"\\uff61":1,"\\ud83d\\ude00":1,"z":1,"\\u00e9":1}',
    "unknown unicode order 2": '{"\\ue000":1,"\\ud800\\udc00":1}',
    "unknown + type error": '{"x":1,"name":1}',
    "unknown + time error": '{"x":1,"creationTimestamp":"bad"}',
    "unknown nested + type error": '{"ownerReferences":[{"x":1}],"labels":{"a":1}}',
    "unknown 150": '{%s}' % ",".join('"u%03d":1' % i for i in range(150)),
    "unknown nested 120": '{"ownerReferences":[%s]}' % ",".join('{"x":1}' for _ in range(120)),
    "unknown surrogate": '{"\\ud800":1}',
    # error precedence
    "prec name+labels": '{"name":1,"labels":1}',
    "prec annotations+ctime": '{"annotations":1,"creationTimestamp":"bad"}',
    "prec ctime+dtime": '{"creationTimestamp":"bad","deletionTimestamp":"bad2"}',
    "prec generation+finalizers": '{"generation":2.5,"finalizers":[1]}',
    "prec or+name": '{"ownerReferences":[{"controller":"x"}],"name":1}',
    "prec labels+mf time": '{"labels":{"a":1},"managedFields":[{"time":1}]}',
    "prec labels two bad": '{"labels":{"a":1,"b":true}}',
    "prec finalizers two bad": '{"finalizers":[1,true]}',
    "prec ctime num + labels": '{"creationTimestamp":1,"labels":{"a":1}}',
    "prec or two bad": '{"ownerReferences":[{"name":1,"uid":2}]}',
    "prec mf two bad": '{"managedFields":[{"manager":1,"operation":2}]}',
    "prec mf bad + time bad": '{"managedFields":[{"apiVersion":1,"time":"bad"}]}',
    "prec mf time bad + later bad": '{"managedFields":[{"time":"bad"},{"manager":1}]}',
    # drop mode
    "drop mixed": '{"name":"n","namespace":["abc"],"labels":{"foo":42},"x":1}',
    "drop ctime bad": '{"name":"n","creationTimestamp":"bad","generation":3}',
    "drop labels partly bad": '{"labels":{"a":"b","c":1},"annotations":{"a":"b"}}',
    "drop or partly bad": '{"ownerReferences":[{"name":"a"},{"name":1}],"finalizers":["f"]}',
    "drop all bad": '{"name":1,"generation":"x","labels":[]}',
    "drop unknown + bad": '{"x":1,"name":1,"y":{"z":1},"ownerReferences":[{"q":1}]}',
    "drop mf unknown + bad": '{"managedFields":[{"x":1,"manager":1}],"finalizers":[{"y":1}]}',
    "drop dtime zero": '{"deletionTimestamp":"0001-01-01T00:00:00Z","name":1}',
    # zero values
    "zero generation": '{"generation":0}',
    "zero dgps": '{"deletionGracePeriodSeconds":0}',
    "null dgps": '{"deletionGracePeriodSeconds":null}',
    "empty labels": '{"labels":{}}',
    "empty or": '{"ownerReferences":[]}',
    "empty finalizers": '{"finalizers":[]}',
    "mf [{}]": '{"managedFields":[{}]}',
    "all empty strings": '{"name":"","generateName":"","namespace":"","selfLink":"","uid":"","resourceVersion":""}',
    "all null": '{%s}' % ",".join('"%s":null' % f for f in TOP[:15]),
    "dtime null": '{"deletionTimestamp":null}',
    "ctime null": '{"creationTimestamp":null}',
    "ctime zero": '{"creationTimestamp":"0001-01-01T00:00:00Z"}',
    "dtime zero": '{"deletionTimestamp":"0001-01-01T00:00:00Z"}',
    "mf time zero": '{"managedFields":[{"time":"0001-01-01T00:00:00Z"}]}',
    "mf time null": '{"managedFields":[{"time":null}]}',
    # numbers
    "generation big int": '{"generation":9007199254740993}',
    "generation min": '{"generation":-9223372036854775808}',
    "generation 1e18": '{"generation":1e18}',
    "generation 9.2e18": '{"generation":9.2e18}',
    "generation 9.3e18": '{"generation":9.3e18}',
    "generation -9.3e18": '{"generation":-9.3e18}',
    "generation 1.5e300": '{"generation":1.5e300}',
    "generation 1e-300": '{"generation":1e-300}',
    "generation 123456789.0": '{"generation":123456789.0}',
    "generation 1e20": '{"generation":1e20}',
    "generation 1e21": '{"generation":1e21}',
    "generation -1e21": '{"generation":-1e21}',
    "generation 0.000001": '{"generation":0.000001}',
    "generation 5e-324": '{"generation":5e-324}',
    "dgps 1e3": '{"deletionGracePeriodSeconds":1e3}',
    "dgps 2^63 float": '{"deletionGracePeriodSeconds":9223372036854775808}',
    "dgps -2^63 float": '{"deletionGracePeriodSeconds":-9223372036854775809}',
    "dgps 2.5": '{"deletionGracePeriodSeconds":2.5}',
    "dgps 1e21": '{"deletionGracePeriodSeconds":1e21}',
    # strings
    "name nul": '{"name":"a\\u0000b"}',
    "name u2028": '{"name":"\\u2028<>&"}',
    "name lone surrogate": '{"name":"\\ud800x"}',
    "labels unicode": '{"labels":{"\\u00e9":"\\ud83d\\ude00"}}',
    "everything valid": '{"name":"n","generateName":"g","namespace":"ns","selfLink":"/s","uid":"u","resourceVersion":"1","generation":2,"creationTimestamp":"2020-01-01T00:00:00Z","deletionTimestamp":"2020-01-02T00:00:00+01:00","deletionGracePeriodSeconds":30,"labels":{"a":"b"},"annotations":{"c":"d"},"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"o","uid":"ou"}],"finalizers":["f"],"managedFields":[{"manager":"m"}]}',
}
for k, v in MISC.items():
    add("misc/" + k, v)

# 6. probes around the first mismatches (time.Parse details) and number texts
TIMES2 = [
    "\u00e9", "2020-01-01T00:00:00\u00e9", "\ufffd", "\ud800", "2020-01-01T00:00:00\t", "\"", "\\",
    "2020-01-01T00:00:00\u007f", "2020-01-01T00:00:00\u0085", "\U0001F600", "2020-01-01T00:00:00.5\u00e9",
    "2020-01-01T00:00:00+25:00", "2020-01-01T00:00:00+24:61", "2020-01-01T00:00:00+00:61",
    "2020-01-01T00:00:00+24:60", "2020-01-01T00:00:00-99:00", "2020-01-01T00:00:00+99:59",
    "2020-01-01T00:00:00-25:99", "+202-01-01T00:00:00Z", "-001-01-01T00:00:00Z", "+0001-01-01T00:00:00Z",
    "0-01-01T00:00:00Z", "2020-+1-01T00:00:00Z", "2020-01-+1T00:00:00Z", "2020-01-01T+1:00:00Z",
    "2020-01-01T00:+1:00Z", "2020-01-01T00:00:+1Z", "2020-01-01T00:00:00.+5Z", "2020-01-01T00:00:00.5a5Z",
    "0000-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "2100-02-29T00:00:00Z",
    "2020-01-01T00:00:00." + "1" * 100 + "Z", "2020-01-01T00:00:00.5-24:00", "2020-01-01T00:00:00-24:00",
    "2020-01-01T00:00:00+-2:00", "2020-01-01T00:00:00+02:-1", "2020-01-01T00:00:00+2a:00",
    "2020-01-01T25:00:00+99:99", "2020-02-30T00:00:00+99:99", "2020-13-45T99:99:99Z",
    "2020-01-01T00:00:00.5+99:99", "00000-01-01T00:00:00Z", "202a-01-01T00:00:00Z",
]
for t in TIMES2:
    s = json.dumps(t)
    add(f"time2/creationTimestamp={s}", '{"creationTimestamp":%s}' % s)
    add(f"time2/managedFields[0].time={s}", '{"managedFields":[{"time":%s}]}' % s)
NUMS2 = ['-0.0', '1e20', '1e-7', '0.000001', '123456789.5', '1.7976931348623157e308', '4.9e-324',
         '123456789012345678901234567890', '-123456789012345678901234567890', '1e15', '1.5e15',
         '100000000000000000000000', '0.1e1', '1E2', '12345678901234567890', '-0.5', '3.0e0']
for v in NUMS2:
    for f in ['generation', 'deletionGracePeriodSeconds', 'name']:
        add(f"num2/{f}={v}", '{"%s":%s}' % (f, v))
    add(f"num2/fieldsV1={v}", '{"managedFields":[{"fieldsV1":%s}]}' % v)
    add(f"num2/fieldsV1.a={v}", '{"managedFields":[{"fieldsV1":{"a":[%s]}}]}' % v)
MISC2 = {
    "or [unknown, 1]": '{"ownerReferences":[{"x":1},1]}',
    "or 100 unknown exactly": '{"ownerReferences":[%s]}' % ",".join('{"x":1}' for _ in range(100)),
    "or 101 unknown": '{"ownerReferences":[%s]}' % ",".join('{"x":1}' for _ in range(101)),
    "unknown 99 + nested 2": '{%s,"ownerReferences":[{"x":1},{"y":1}]}' % ",".join('"u%03d":1' % i for i in range(99)),
    "unknown 101 + drop bad": '{%s,"name":1}' % ",".join('"u%03d":1' % i for i in range(101)),
    "or 101 unknown + drop bad": '{"ownerReferences":[%s],"name":1}' % ",".join('{"x":1}' for _ in range(101)),
    "mf 60 + or 60 unknown": '{"managedFields":[%s],"ownerReferences":[%s]}' % (",".join('{"x":1}' for _ in range(60)), ",".join('{"x":1}' for _ in range(60))),
}
for k, v in MISC2.items():
    add("misc2/" + k, v)

ids = [c["id"] for c in cases]
assert len(ids) == len(set(ids)), "duplicate ids"
with open(sys.argv[1], "w") as f:
    for c in cases:
        f.write(json.dumps(c) + "\n")
print(f"{len(cases)} cases", file=sys.stderr)
