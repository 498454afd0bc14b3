#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Validate Kubernetes manifests offline, unknown fields and types included.

  k8s-validate.py FILE.yaml...   prints "ok FILE KIND/NAME" or "FILE KIND/NAME: PATH: why"
                                 per object; exit 1 when any object is invalid.

Built-in kinds: against the models of Debian 12's python3-kubernetes 22.6 (generated from
the Kubernetes 1.22 OpenAPI spec): apiVersion and kind must name an API that 1.22 serves
(the client has an API class for the group/version with a create call for the kind), every
field must be one the model declares (kubectl's strict field validation, the default
since 1.27, refuses unknown fields too), every value of the declared type, and the
models' required fields present (their own client-side validation).

Custom resources: against the openAPIV3Schema of their CRD, kept in schemas/*.json (each
names its source: project, tag, commit, file): type, properties (unknown fields refused
unless x-kubernetes-preserve-unknown-fields), required, enum, items, additionalProperties,
min/maxItems, min/maxLength. x-kubernetes-validations (CEL) are not evaluated; each CEL
rule that applies is counted in the "ok" line so that nothing looks checked that was not.

Uses /usr/bin/python3 on purpose: python3-kubernetes and python3-yaml are Debian's.
"""
import glob
import json
import os
import re
import sys

import yaml
import kubernetes.client as kc
from kubernetes.client import models as km

HERE = os.path.dirname(os.path.abspath(__file__))
PRIMITIVES = {"str": str, "int": int, "float": (int, float), "bool": bool}


class Invalid(Exception):
    pass


def api_class(api_version):
    """apps/v1 -> AppsV1Api, v1 -> CoreV1Api, rbac.authorization.k8s.io/v1 -> ..."""
    group, _, version = api_version.rpartition("/")
    words = re.split(r"[.-]", group.replace(".k8s.io", "")) if group else ["core"]
    name = "".join(w.capitalize() for w in words) + version.capitalize() + "Api"
    return getattr(kc, name, None)


def snake(kind):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", kind).lower()


def check_builtin_kind(doc):
    api = api_class(doc["apiVersion"])
    kind = doc["kind"]
    if api is None:
        raise Invalid(f"apiVersion: {doc['apiVersion']} is not served by Kubernetes 1.22")
    s = snake(kind)
    if not (hasattr(api, "create_namespaced_" + s) or hasattr(api, "create_" + s)):
        raise Invalid(f"kind: {kind} is not in {doc['apiVersion']} (Kubernetes 1.22)")
    version = doc["apiVersion"].rpartition("/")[2]
    model = version.capitalize() + kind
    if not hasattr(km, model):
        raise Invalid(f"kind: no model {model}")
    return model


def check_type(value, t, path):
    if value is None:
        return
    if t.startswith("list["):
        if not isinstance(value, list):
            raise Invalid(f"{path}: expected a list, got {type(value).__name__}")
        for i, v in enumerate(value):
            check_type(v, t[5:-1], f"{path}[{i}]")
    elif t.startswith("dict("):
        if not isinstance(value, dict):
            raise Invalid(f"{path}: expected a map, got {type(value).__name__}")
        inner = t[5:-1].split(", ", 1)[1]
        for k, v in value.items():
            check_type(v, inner, f"{path}.{k}")
    elif t in PRIMITIVES:
        ok = isinstance(value, PRIMITIVES[t]) and not (t != "bool" and isinstance(value, bool))
        if not ok:
            raise Invalid(f"{path}: expected {t}, got {type(value).__name__} {value!r}")
    elif t == "object":  # IntOrString, RawExtension: any scalar or map
        return
    elif t in ("datetime", "date"):
        if not isinstance(value, str):
            raise Invalid(f"{path}: expected a {t} string")
    else:
        check_model(value, t, path)


def check_model(value, model, path):
    cls = getattr(km, model)
    if not isinstance(value, dict):
        raise Invalid(f"{path}: expected an object ({model}), got {type(value).__name__}")
    by_json = {j: a for a, j in cls.attribute_map.items()}
    for k, v in value.items():
        if k not in by_json:
            raise Invalid(f"{path}.{k}: unknown field (not in {model})")
        check_type(v, cls.openapi_types[by_json[k]], f"{path}.{k}")


def check_required(doc, model):
    """The models' own setters refuse a missing required field (client-side validation)."""
    client = kc.ApiClient()
    try:
        client._ApiClient__deserialize(doc, model)
    except ValueError as e:
        raise Invalid(f"required or allowed value: {e}")


def load_crds():
    crds = {}
    for f in glob.glob(os.path.join(HERE, "schemas", "*.json")):
        with open(f) as fh:
            d = json.load(fh)
        crds[(f"{d['group']}/{d['version']}", d["kind"])] = d
    return crds


def check_schema(value, s, path, cel):
    cel[0] += len(s.get("x-kubernetes-validations", []))
    t = s.get("type")
    types = {"object": dict, "array": list, "string": str, "boolean": bool,
             "integer": int, "number": (int, float)}
    if s.get("x-kubernetes-int-or-string"):
        if not isinstance(value, (int, str)) or isinstance(value, bool):
            raise Invalid(f"{path}: expected an int or a string")
        return
    if t and (not isinstance(value, types[t]) or (t != "boolean" and isinstance(value, bool))):
        raise Invalid(f"{path}: expected {t}, got {type(value).__name__} {value!r}")
    if "enum" in s and value not in s["enum"]:
        raise Invalid(f"{path}: {value!r} not one of {s['enum']}")
    if t == "string":
        if len(value) > s.get("maxLength", len(value)) or len(value) < s.get("minLength", 0):
            raise Invalid(f"{path}: length {len(value)} out of bounds")
    if t == "array":
        if len(value) > s.get("maxItems", len(value)) or len(value) < s.get("minItems", 0):
            raise Invalid(f"{path}: {len(value)} items, out of bounds")
        for i, v in enumerate(value):
            check_schema(v, s.get("items", {}), f"{path}[{i}]", cel)
    if t == "object":
        for r in s.get("required", []):
            if r not in value:
                raise Invalid(f"{path}.{r}: required field missing")
        props = s.get("properties", {})
        extra = s.get("additionalProperties")
        for k, v in value.items():
            if k in props:
                check_schema(v, props[k], f"{path}.{k}", cel)
            elif isinstance(extra, dict):
                check_schema(v, extra, f"{path}.{k}", cel)
            elif props and not s.get("x-kubernetes-preserve-unknown-fields"):
                raise Invalid(f"{path}.{k}: unknown field")


def check_metadata(doc, scope):
    meta = doc.get("metadata")
    check_model(meta, "V1ObjectMeta", "metadata")
    if not meta or not meta.get("name"):
        raise Invalid("metadata.name: required")
    if scope == "Cluster" and "namespace" in meta:
        raise Invalid("metadata.namespace: the kind is cluster-scoped")


def validate(doc, crds):
    for k in ("apiVersion", "kind"):
        if not isinstance(doc.get(k), str):
            raise Invalid(f"{k}: missing")
    crd = crds.get((doc["apiVersion"], doc["kind"]))
    if crd:
        check_metadata(doc, crd["scope"])
        body = {k: v for k, v in doc.items() if k != "metadata"}
        cel = [0]
        check_schema(body, crd["openAPIV3Schema"], "", cel)
        return f"CRD schema, {cel[0]} CEL rules not evaluated"
    model = check_builtin_kind(doc)
    check_model(doc, model, "")
    check_required(doc, model)
    return f"{model}, Kubernetes 1.22"


def main(files):
    crds, bad = load_crds(), 0
    for f in files:
        with open(f) as fh:
            docs = [d for d in yaml.safe_load_all(fh) if d is not None]
        if not docs:
            print(f"{f}: no object")
            bad += 1
        for d in docs:
            name = f"{d.get('kind')}/{(d.get('metadata') or {}).get('name')}"
            try:
                how = validate(d, crds)
                print(f"ok {f} {name} ({how})")
            except Invalid as e:
                print(f"{f} {name}: {e}")
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
