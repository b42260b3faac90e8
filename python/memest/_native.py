"""The one module that calls libmemest.so (ctypes): the library found and
its functions declared, the memest command run in memory, and a config
object's fields handed to the core's field table. Nothing here holds
state between calls but the loaded library, so calls may come from many
threads at once (ctypes lets go of the GIL while C runs)."""
import ctypes
import os

_HERE = os.path.dirname(os.path.abspath(__file__))


def _find_library():
    path = os.environ.get("MEMEST_LIBRARY") or os.path.join(_HERE, "libmemest.so")
    if not os.path.isfile(path):
        raise ImportError(
            "memest: the library %s is not there; build the project (cmake --build build) and "
            "put build/python on PYTHONPATH, or pip install the wheel "
            "build/python/memest-*.whl" % path)
    return path


LIB = ctypes.CDLL(_find_library())


class Value(ctypes.Structure):
    """memest_value (include/memest.h)."""
    _fields_ = [("kind", ctypes.c_int), ("i", ctypes.c_int64), ("f", ctypes.c_double),
                ("text", ctypes.c_char_p), ("text_len", ctypes.c_size_t),
                ("args", ctypes.c_char_p)]


class CommandInput(ctypes.Structure):
    """memest_command_input (include/memest_command.h)."""
    _fields_ = [("run", ctypes.c_void_p), ("script", ctypes.c_char_p),
                ("workdir", ctypes.c_char_p)]


class FieldInfo(ctypes.Structure):
    """memest_trainer_field_info (include/memest.h)."""
    _fields_ = [(name, ctypes.c_char_p) for name in
                ("section", "name", "since", "until", "conversion", "input", "default_text",
                 "note")]


def _declare(name, restype, *argtypes):
    fn = getattr(LIB, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)
    return fn


_version = _declare("memest_version", ctypes.c_char_p)
_free = _declare("memest_free", None, ctypes.c_void_p)
_command = _declare("memest_command", ctypes.c_int, ctypes.c_int,
                    ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(CommandInput),
                    ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_size_t),
                    ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_size_t))
_run_new = _declare("memest_cfg_run_new", ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int)
_run_field = _declare("memest_cfg_run_field", None, ctypes.c_void_p, ctypes.c_char_p,
                      ctypes.c_char_p, ctypes.POINTER(Value))
_run_finish = _declare("memest_cfg_run_finish", None, ctypes.c_void_p, ctypes.c_int)
_run_free = _declare("memest_trainer_run_free", None, ctypes.c_void_p)
_field_count = _declare("memest_trainer_field_count", ctypes.c_int)
_field_describe = _declare("memest_trainer_field_describe", ctypes.c_int, ctypes.c_int,
                           ctypes.POINTER(FieldInfo))
_gpu_count = _declare("memest_gpu_preset_count", ctypes.c_int)
_gpu_name = _declare("memest_gpu_preset_name", ctypes.c_char_p, ctypes.c_int)
_gpu_bytes = _declare("memest_gpu_preset_bytes", ctypes.c_uint64, ctypes.c_int)


TIGHT_PERCENT = _declare("memest_tight_percent", ctypes.c_int)()


def version():
    return _version().decode()


def _take(ptr, size):
    """The bytes the library allocated at ptr, then freed."""
    if not ptr:
        return b""
    try:
        return ctypes.string_at(ptr, size)
    finally:
        _free(ptr)


def command(argv, run=None, script=None, workdir=None):
    """Runs `memest ARGV...` (argv[0] "memest") in this process: (exit status,
    stdout text, stderr text), as the program would give them."""
    encoded = [os.fsencode(a) for a in argv]
    for a in encoded:
        if b"\0" in a:   # no command line can hold one; C would read the text up to it
            raise ValueError("memest: argument %r holds a NUL character, which no command line "
                             "can hold" % (a,))
    args = (ctypes.c_char_p * len(argv))(*encoded)
    given = CommandInput(run, os.fsencode(script) if script is not None else None,
                         os.fsencode(workdir) if workdir is not None else None)
    out, err = ctypes.c_void_p(), ctypes.c_void_p()
    out_len, err_len = ctypes.c_size_t(), ctypes.c_size_t()
    rc = _command(len(argv), args, ctypes.byref(given), ctypes.byref(out), ctypes.byref(out_len),
                  ctypes.byref(err), ctypes.byref(err_len))
    out_text = _take(out.value, out_len.value).decode("utf-8", "replace")
    err_text = _take(err.value, err_len.value).decode("utf-8", "replace")
    if rc < 0:
        raise MemoryError("memest: out of memory running the command")
    return rc, out_text, err_text


class Run:
    """A run record of a config object (memest_cfg_run_new), freed on close."""

    def __init__(self, label, line):
        self.ptr = _run_new(os.fsencode(label), int(line))
        if not self.ptr:
            raise MemoryError("memest: out of memory")

    def field(self, section, name, value):
        _run_field(self.ptr, section.encode(), name.encode(), ctypes.byref(value))

    def finish(self, complete):
        _run_finish(self.ptr, 1 if complete else 0)

    def close(self):
        if self.ptr:
            _run_free(self.ptr)
            self.ptr = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def trainer_fields():
    """The core's table of the trainer's config fields, row by row."""
    rows = []
    info = FieldInfo()
    for i in range(_field_count()):
        if not _field_describe(i, ctypes.byref(info)):
            break
        rows.append({name: (getattr(info, name).decode() if getattr(info, name) is not None
                            else None)
                     for name, _ in FieldInfo._fields_})
    for row in rows:
        row["default"] = row.pop("default_text")
    return rows


def gpu_presets():
    """[(name, bytes)] of the GPU presets."""
    return [(_gpu_name(i).decode(), int(_gpu_bytes(i))) for i in range(_gpu_count())]
