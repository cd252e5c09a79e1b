#!/usr/bin/env python3
"""Checks Terraform files against the providers' definitions, with an HCL parser
independent of volplan's (python-hcl2).

    check_terraform.py SCHEMAS.json FILE.tf...

SCHEMAS.json is src/iac/schema/provider_schemas.json: every resource and data source
with its arguments (type, required, allowed values, range, name pattern), nested
blocks and cross-argument rules, each citing the provider source it was read from.
Every `resource`, `data` and `provider` block of each file must have a definition and
follow it, and a provider whose block is required must have one;
an expression is checked by type where its type is known (a variable's declared type,
another resource's argument). Prints each problem and exits 1 when there is any, 2 when
a file does not parse or python-hcl2 is missing; prints a summary and exits 0
otherwise. Reads python-hcl2 8.x output: string literals keep their quotes,
expressions are "${...}", blocks are lists of dicts marked "__is_block__".
"""

import json
import re
import sys

try:
    import hcl2
except ImportError:
    sys.exit("python-hcl2 is not installed (pip install python-hcl2)")

REF = re.compile(r"^\$\{([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\[[^\]]*\])*)\}$")


def unquote(s):
    """A label or quoted string literal without its quotes."""
    if len(s) >= 2 and s[0] == '"' and s[-1] == '"':
        try:
            return json.loads(s)
        except ValueError:
            return s[1:-1]
    return s


def klass(t):
    return {"list": "list", "set": "list", "map": "map", "any": "any"}.get(t, "scalar")


def schema_type(t):
    head = t.split("(")[0]
    return {"list": "list", "set": "list", "tuple": "list", "map": "map", "object": "map",
            "string": "string", "number": "number", "bool": "bool"}.get(head, "any")


class Unknown:
    pass


class Typed:
    def __init__(self, t):
        self.t = t


class File:
    def __init__(self, doc, schemas):
        self.schemas = schemas
        self.vars = {}
        for v in doc.get("variable", []):
            for name, body in v.items():
                t = str(body.get("type", "any"))
                self.vars[unquote(name)] = t[2:-1] if t.startswith("${") else t
        self.kinds = {}
        for kind, prefix in (("resource", ""), ("data", "data.")):
            for r in doc.get(kind, []):
                for t, labels in r.items():
                    for label in labels:
                        self.kinds[f"{prefix}{unquote(t)}.{unquote(label)}"] = prefix + unquote(t)

    def known(self, v):
        """A literal value, Typed(type) or Unknown()."""
        if isinstance(v, bool) or isinstance(v, (int, float)):
            return v
        if isinstance(v, str):
            if v.startswith('"') and v.endswith('"'):
                return Typed("string") if "${" in v else unquote(v)
            m = REF.match(v)
            return self.reference(m.group(1)) if m else Unknown()
        if isinstance(v, list):
            items = [self.known(x) for x in v]
            literal = all(not isinstance(x, (Typed, Unknown)) for x in items)
            return items if literal else Typed("list")
        if isinstance(v, dict):
            items = {unquote(k): self.known(x) for k, x in v.items()}
            literal = all(not isinstance(x, (Typed, Unknown)) for x in items.values())
            return items if literal else Typed("map")
        return Unknown()

    def reference(self, text):
        parts = re.findall(r"[A-Za-z_][\w-]*|\[[^\]]*\]", text)
        names = ["[]" if p.startswith("[") else p for p in parts]
        if names[0] == "var" and len(names) >= 2:
            t = self.vars.get(names[1])
            if t is None:
                return Unknown()
            for op in names[2:]:
                m = re.match(r"^(?:list|set)\((.*)\)$", t)
                if op != "[]" or not m:
                    return Unknown()
                t = m.group(1)
            return Typed(schema_type(t))
        if names[0] == "data" and len(names) == 4:
            return self.attribute(".".join(names[:3]), names[3])
        if len(names) == 3:
            return self.attribute(".".join(names[:2]), names[2])
        return Unknown()

    def attribute(self, resource, attr):
        kind = self.kinds.get(resource)
        if kind is None:
            return Unknown()
        t = self.schemas["terraform"].get(kind, {}).get("arguments", {}).get(attr, {}).get("type")
        if t:
            return Typed(schema_type(t))
        return Typed("string") if attr == "id" else Unknown()


def number(v):
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def show(v):
    return json.dumps(v) if not isinstance(v, float) or not v.is_integer() else str(int(v))


def check_value(what, spec, v, out):
    want = spec.get("type", "any")
    if isinstance(v, Unknown):
        return
    if isinstance(v, Typed):
        a, b = klass(v.t), klass(want)
        if (a != b and "any" not in (a, b)) or (v.t == "bool" and want not in ("bool", "string")):
            out.append(f"{what}: expects {want}, given an expression of type {v.t}")
        return
    if want == "any":
        ok = True
    elif want == "string":
        ok = (isinstance(v, str) and (not spec.get("numeric") or number(v) is not None)) \
            or isinstance(v, (bool, int, float))
    elif want == "integer":
        n = number(v)
        ok = n is not None and n.is_integer()
    elif want == "number":
        ok = number(v) is not None
    elif want == "bool":
        ok = isinstance(v, bool) or v in ("true", "false")
    elif want in ("list", "set"):
        ok = isinstance(v, list)
    elif want == "map":
        ok = isinstance(v, dict)
    else:
        ok = False
    if not ok:
        out.append(f"{what}: expects {want}, given {show(v)}")
        return
    if "allowed" in spec:
        same = any(a == v or (number(a) is not None and number(a) == number(v)
                              and not isinstance(v, str)) for a in spec["allowed"])
        if not same:
            out.append(f"{what}: {show(v)} is not one of {json.dumps(spec['allowed'])}")
    n = number(v)
    if n is not None and not isinstance(v, bool):
        if ("min" in spec and n < spec["min"]) or ("max" in spec and n > spec["max"]):
            out.append(f"{what}: {show(v)} is outside {spec.get('min')}..{spec.get('max')}")
    if "pattern" in spec and isinstance(v, str) and not re.search(spec["pattern"], v):
        out.append(f"{what}: {v!r} does not match {spec['pattern']}")
    items = v if isinstance(v, list) else list(v.values()) if isinstance(v, dict) else None
    if items is None:
        return
    if ("min_items" in spec and len(items) < spec["min_items"]) or \
            ("max_items" in spec and len(items) > spec["max_items"]):
        out.append(f"{what}: {len(items)} items, allowed {spec.get('min_items')}..{spec.get('max_items')}")
    if "items" in spec:
        for i, item in enumerate(items):
            check_value(f"{what}[{i}]", spec["items"], item, out)


def check_block(what, spec, body, extra, f, out):
    args = spec.get("arguments") or {}
    blocks = spec.get("blocks") or {}
    found, nested = {}, []
    for k, v in body.items():
        if k.startswith("__"):
            continue
        if isinstance(v, list) and v and all(isinstance(x, dict) and x.get("__is_block__") for x in v):
            nested.extend((k, x) for x in v)
        else:
            found[k] = f.known(v)
    for k, v in found.items():
        if k in args:
            check_value(f"{what}.{k}", args[k], v, out)
        elif k not in extra:
            out.append(f"{what}: unknown argument {k}")
    for k, a in args.items():
        if a.get("required") and k not in found:
            out.append(f"{what}: required argument {k} missing")
    for k, b in blocks.items():
        n = sum(1 for name, _ in nested if name == k)
        if ("min_items" in b and n < b["min_items"]) or ("max_items" in b and n > b["max_items"]):
            out.append(f"{what}: {n} {k} blocks, allowed {b.get('min_items')}..{b.get('max_items')}")
    for k, inner in nested:
        b = blocks.get(k)
        if b is None:
            if k not in extra:
                out.append(f"{what}: unknown block {k}")
        elif b.get("arguments") is None:
            out.append(f"{what}: block {k} is used but its arguments are not in provider_schemas.json")
        else:
            check_block(f"{what}.{k}", b, inner, [], f, out)
    for rule in spec.get("rules", []):
        cond, then = rule["if"], rule["then"]
        name = cond["argument"]
        if "present" in cond:
            holds = (name in found) == cond["present"]
        else:
            v = found.get(name, args.get(name, {}).get("default"))
            if isinstance(v, (Typed, Unknown)) or v is None:
                continue
            holds = v == cond["equals"] or (isinstance(v, list) and cond["equals"] in v)
        if not holds:
            continue
        target = then["argument"]
        narrowed = dict(args.get(target, {}))
        for key in ("min", "max"):
            if key in then:
                narrowed[key] = then[key]
        if "equals" in then:
            narrowed["allowed"] = [then["equals"]]
        when = "when " + json.dumps(cond, separators=(",", ":"))
        if target in found:
            check_value(f"{what}.{target} ({when})", narrowed, found[target], out)
        elif then.get("present") or "equals" in then:
            out.append(f"{what}: {target} is required {when}")


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    with open(argv[1], encoding="utf-8") as fh:
        schemas = json.load(fh)
    meta = schemas.get("terraform_meta", [])
    problems, resources = [], 0
    for path in argv[2:]:
        try:
            with open(path, encoding="utf-8") as fh:
                doc = hcl2.load(fh)
        except Exception as e:  # every parser error names the file
            print(f"{path}: does not parse: {e}")
            return 2
        f = File(doc, schemas)
        for p in doc.get("provider", []):
            for name, body in p.items():
                key = f"provider.{unquote(name)}"
                resources += 1
                spec = schemas["terraform"].get(key)
                if spec is None:
                    problems.append(f"{path}: {key}: no published schema")
                else:
                    check_block(f"{path}: {key}", spec, body, meta, f, problems)
        for key, spec in schemas["terraform"].items():
            if key.startswith("provider.") and spec.get("required"):
                prefix = key[len("provider."):] + "_"
                if any(k.split(".")[-1].startswith(prefix) for k in f.kinds.values()) and \
                        not any(unquote(n) == key[len("provider."):] for p in doc.get("provider", []) for n in p):
                    problems.append(f"{path}: {key}: the provider block is required (its resources are used)")
        for kind, prefix in (("resource", ""), ("data", "data.")):
            for r in doc.get(kind, []):
                for t, labels in r.items():
                    key = prefix + unquote(t)
                    spec = schemas["terraform"].get(key)
                    for label, body in labels.items():
                        resources += 1
                        what = f"{path}: {key}.{unquote(label)}"
                        if spec is None:
                            problems.append(f"{what}: no published schema")
                        else:
                            check_block(what, spec, body, meta, f, problems)
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"{len(argv) - 2} files, {resources} resources, data sources and providers: as the providers define them")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
