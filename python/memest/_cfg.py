"""A live config object (the trainer's PretrainLMCfg, or any object of its
shape) read field by field: each field's value is said as one of the
core's value kinds (memest_value_kind), and the core's one field table
(core/trainer/trainer_fields.c) decides what it means for memory. No field
name or conversion is restated here."""
import dataclasses
import datetime
import functools
import numbers
import os
import types

from . import _native

(UNSET, NONE, BOOL, INT, FLOAT, STR, PATH, FUNC, PARTIAL, TIMEDELTA, OBJECT,
 OTHER) = range(12)

_INT64 = (-(1 << 63), (1 << 63) - 1)


def _short_repr(value, limit=300):
    try:
        text = repr(value)
    except Exception as e:  # a repr that raises is still a value memest does not read
        text = "<%s whose repr raises %s>" % (type(value).__name__, type(e).__name__)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _utf8(text):
    """text as strict UTF-8, or None where it holds what UTF-8 cannot (lone surrogates)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return None


def _text_value(kind, text, args=None):
    """A value of `kind` with text (bytes), its length the bytes' own: a NUL
    inside is the core's to refuse, never a place to cut the text."""
    return _native.Value(kind, 0, 0.0, text, len(text), args)


def _other(value):
    return _text_value(OTHER, _short_repr(value).encode("utf-8", "replace"))


def value_of(value):
    """The memest_value a Python value is (the field's own value, not a copy)."""
    if value is _Unset:
        return _native.Value(UNSET, 0, 0.0, None, 0, None)
    if value is None:
        return _native.Value(NONE, 0, 0.0, None, 0, None)
    if isinstance(value, bool):
        return _native.Value(BOOL, int(value), 0.0, None, 0, None)
    if isinstance(value, numbers.Integral):
        i = int(value)
        if not _INT64[0] <= i <= _INT64[1]:
            return _other(value)
        return _native.Value(INT, i, 0.0, None, 0, None)
    if isinstance(value, numbers.Real):
        return _native.Value(FLOAT, 0, float(value), None, 0, None)
    if isinstance(value, str):
        text = _utf8(value)
        return _text_value(STR, text) if text is not None else _other(value)
    if isinstance(value, os.PathLike):
        path = os.fspath(value)
        text = _utf8(path) if isinstance(path, str) else None
        return _text_value(PATH, text) if text is not None else _other(value)
    if isinstance(value, functools.partial):
        name = getattr(value.func, "__name__", None)
        if not isinstance(name, str):
            return _other(value)
        shown = [_short_repr(a, 60) for a in value.args]
        shown += ["%s=%s" % (k, _short_repr(v, 60)) for k, v in value.keywords.items()]
        return _text_value(PARTIAL, name.encode("utf-8", "replace"),
                           ", ".join(shown)[:150].encode("utf-8", "replace").replace(b"\0", b""))
    if isinstance(value, datetime.timedelta):
        return _native.Value(TIMEDELTA, 0, value.total_seconds(), None, 0, None)
    if callable(value) and isinstance(getattr(value, "__name__", None), str):
        return _text_value(FUNC, value.__name__.encode("utf-8", "replace"))
    if _is_section(value):
        return _text_value(OBJECT, type(value).__name__.encode("utf-8", "replace"))
    return _other(value)


class _UnsetType:
    def __repr__(self):
        return "<unset>"


_Unset = _UnsetType()


def _is_section(value):
    """Whether value is a config object whose fields are read (a dataclass
    instance, a namespace, or an object with its own attributes)."""
    if isinstance(value, type):
        return False
    if dataclasses.is_dataclass(value) or isinstance(value, types.SimpleNamespace):
        return True
    return hasattr(value, "__dict__") and not callable(value) and not isinstance(
        value, (os.PathLike, datetime.timedelta, numbers.Number, str, bytes))


def fields_of(obj):
    """[(name, value)] of a config object's fields, a field never set as
    _Unset; and whether the list is every field its class declares."""
    if dataclasses.is_dataclass(obj):
        out = []
        for f in dataclasses.fields(obj):
            try:
                out.append((f.name, getattr(obj, f.name)))
            except AttributeError:   # a slotted field never set
                out.append((f.name, _Unset))
        return out, True
    return [(k, v) for k, v in vars(obj).items() if not k.startswith("_")], False


def read(cfg, label, line):
    """The run record of cfg (a _native.Run; the caller closes it)."""
    if not _is_section(cfg):
        raise TypeError("memest: cfg is %s, not a config object (the trainer's PretrainLMCfg, "
                        "or an object with distributed and training sections)"
                        % _short_repr(cfg, 120))
    run = _native.Run(label, line)
    try:
        top, complete = fields_of(cfg)
        for name, value in top:
            if value is not _Unset and _is_section(value):
                fields, whole = fields_of(value)
                complete = complete and whole
                for fname, fvalue in fields:
                    run.field(name, fname, value_of(fvalue))
            else:
                run.field("", name, value_of(value))
        run.finish(complete)
    except BaseException:
        run.close()
        raise
    return run
