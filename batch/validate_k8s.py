#!/usr/bin/env python3
"""Checks Kubernetes manifests field by field against the official API models (the `kubernetes` client's classes,
generated from the API's OpenAPI document) where no cluster is reachable for `kubectl apply --dry-run=server`: every
key must be a field of its object, every value of the field's type. Prints each object's kind and name, or the
first wrong field and exits 1.

    batch/validate_k8s.py FILE...
"""
import re
import sys

import kubernetes.client
import yaml

PRIMITIVES = {"str": str, "int": int, "bool": bool, "float": (int, float), "object": object}


def check(value, type_name, path):
    # The client spells containers "list[X]" / "dict(str, X)" or, in newer releases, "List[X]" / "Dict[str, X]".
    list_type = re.fullmatch(r"[lL]ist\[(.+)\]", type_name)
    dict_type = re.fullmatch(r"dict\(str, (.+)\)", type_name) or re.fullmatch(r"Dict\[str, (.+)\]", type_name)
    if list_type:
        if not isinstance(value, list):
            raise ValueError(f"{path}: expected a list")
        for i, item in enumerate(value):
            check(item, list_type.group(1), f"{path}[{i}]")
    elif dict_type:
        if not isinstance(value, dict):
            raise ValueError(f"{path}: expected a map")
        for k, v in value.items():
            check(v, dict_type.group(1), f"{path}.{k}")
    elif type_name in PRIMITIVES:
        # Quantities and int-or-string fields are strings or numbers in YAML.
        if not isinstance(value, PRIMITIVES[type_name]) and not (type_name == "str" and isinstance(value, (int, float))):
            raise ValueError(f"{path}: expected {type_name}, found {type(value).__name__}")
    else:
        model = getattr(kubernetes.client, type_name)
        if not isinstance(value, dict):
            raise ValueError(f"{path}: expected an object ({type_name})")
        fields = {json_name: attr for attr, json_name in model.attribute_map.items()}
        for key, v in value.items():
            if key not in fields:
                raise ValueError(f"{path}.{key}: not a field of {type_name}")
            check(v, model.openapi_types[fields[key]], f"{path}.{key}")


def main():
    for path in sys.argv[1:]:
        for doc in yaml.safe_load_all(open(path)):
            kind = doc.get("kind", "")
            version = doc.get("apiVersion", "").split("/")[-1]
            model = f"{version.capitalize()}{kind}"
            try:
                check(doc, model, kind)
            except (ValueError, AttributeError) as e:
                sys.exit(f"{path}: {e}")
            print(f"{path}: {doc['apiVersion']} {kind} {doc['metadata']['name']} valid")


main()
