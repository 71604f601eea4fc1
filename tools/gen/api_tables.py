"""Reads the cuDNN 8.9 API tables (api/*.tsv) and LibreDNN's support table (src/api/support.tsv)."""
import csv
import os
import re
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Header order is dependency order: a header may use types of the headers before it.
HEADERS = [
    "cudnn_ops_infer.h",
    "cudnn_ops_train.h",
    "cudnn_cnn_infer.h",
    "cudnn_cnn_train.h",
    "cudnn_adv_infer.h",
    "cudnn_adv_train.h",
    "cudnn_backend.h",
]

# The sub-library that owns a header's functions (cudnn_backend.h belongs to cnn_infer here).
LIBRARY_OF_HEADER = {
    "cudnn_ops_infer.h": "ops_infer",
    "cudnn_ops_train.h": "ops_train",
    "cudnn_cnn_infer.h": "cnn_infer",
    "cudnn_cnn_train.h": "cnn_train",
    "cudnn_adv_infer.h": "adv_infer",
    "cudnn_adv_train.h": "adv_train",
    "cudnn_backend.h": "cnn_infer",
}

LIBRARIES = ["ops_infer", "ops_train", "cnn_infer", "cnn_train", "adv_infer", "adv_train"]


@dataclass
class Param:
    text: str  # as declared, e.g. "const int dimA[]"
    name: str


@dataclass
class Function:
    header: str
    name: str
    returns: str
    params: list = field(default_factory=list)

    @property
    def library(self):
        return LIBRARY_OF_HEADER[self.header]

    def param_list(self):
        return ", ".join(p.text for p in self.params) if self.params else "void"

    def arg_list(self):
        return ", ".join(p.name for p in self.params)


@dataclass
class EnumConstant:
    header: str
    enum_type: str
    name: str
    value: str


def _parse_param(text):
    text = text.strip()
    m = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*(\[\])?$", text)
    if not m:
        raise ValueError("cannot find the parameter name in '%s'" % text)
    return Param(text=text, name=m.group(1))


def read_functions(root=ROOT):
    functions = []
    with open(os.path.join(root, "api", "cudnn-8.9-functions.tsv"), newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            params = [_parse_param(p) for p in row["parameters"].split(",")] if row["parameters"].strip() not in ("", "void") else []
            functions.append(Function(row["header"], row["function"], row["returns"].strip(), params))
    return functions


def read_enums(root=ROOT):
    with open(os.path.join(root, "api", "cudnn-8.9-enums.tsv"), newline="") as f:
        return [EnumConstant(r["header"], r["enum_type"], r["constant"], r["value"]) for r in csv.DictReader(f, delimiter="\t")]


@dataclass
class SupportRow:
    function: str
    host: str
    cuda: str
    types: str
    note: str


SUPPORT_STATES = ("yes", "partial", "no", "n/a")


def read_support(root=ROOT):
    rows = {}
    path = os.path.join(root, "src", "api", "support.tsv")
    with open(path, newline="") as f:
        lines = [l for l in f if not l.startswith("#")]
    for r in csv.DictReader(lines, delimiter="\t"):
        row = SupportRow(r["function"], r["host"], r["cuda"], r["types"] or "", r["note"] or "")
        for state in (row.host, row.cuda):
            if state not in SUPPORT_STATES:
                raise ValueError("support.tsv: %s has state '%s', expected one of %s" % (row.function, state, SUPPORT_STATES))
        if row.function in rows:
            raise ValueError("support.tsv lists %s twice" % row.function)
        rows[row.function] = row
    return rows


def is_implemented(row):
    """A function is implemented (has a hand-written entry point) unless both backends say 'no'."""
    return not (row.host == "no" and row.cuda == "no")
