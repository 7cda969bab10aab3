"""USDT probes that a Python program declares at run time (standard library only).

    import sonde_probes

    app = sonde_probes.Provider("myapp")
    start = app.probe("request__start", str, int)   # argument kinds: int or str
    done = app.probe("request__done", int)
    app.load()                      # optional: the first fire loads
    start("GET /", 42)              # fires only while a tracer is attached
    if done.enabled():              # build costly arguments only when traced
        done(len(body))

    @sonde_probes.fbt               # probes fbt:entry (name, args) and fbt:return (name, value),
    def handler(x): ...             # in function "handler" (DTrace: fbt$PID::handler:entry)

The provider becomes a small ELF shared object built in memory: one
`nop; ret` function per probe (its arguments in rdi, rsi, ... at the nop),
one 2-byte semaphore per probe in a writable segment, and a .note.stapsdt
note per probe naming both, as systemtap's <sys/sdt.h> would have written.
It is loaded with ctypes from a memfd (a temporary file when the system
refuses executable memfds), so the probes exist on no disk: a tracer finds
the mapping through /proc/PID/map_files.  A tracer that attaches raises the
semaphore (the kernel does, for uprobes with a reference counter), so a
probe costs one memory read while nobody listens.
"""
import ctypes
import functools
import os
import struct
import tempfile

__all__ = ["Provider", "Probe", "fbt", "Fbt"]

_REGS = ("rdi", "rsi", "rdx", "rcx", "r8", "r9")
_PAGE = 0x1000


def _align(n, a):
    return (n + a - 1) & ~(a - 1)


class Probe:
    """One probe: call it to fire (it checks its semaphore first)."""

    def __init__(self, provider, name, kinds, func=None):
        self.provider, self.name, self.kinds = provider, name, tuple(kinds)
        # the function symbol holding the probe: DTrace's probefunc
        self.func = func or "sonde_probe_" + name
        self._fn = None
        self._sema = None
        self._text_off = self._sema_off = 0  # where build_elf put them

    def _bind(self, lib):
        # by the semaphore's address: the function symbols need not be
        # unique (an fbt function's entry and return probes share its name)
        self._sema = ctypes.c_ushort.in_dll(lib, "sonde_sema_%s" % self.name)
        base = ctypes.addressof(self._sema) - self._sema_off
        kinds = [ctypes.c_char_p if k is str else ctypes.c_long for k in self.kinds]
        self._fn = ctypes.CFUNCTYPE(None, *kinds)(base + self._text_off)

    def enabled(self):
        """True while a tracer is attached to this probe."""
        if self._sema is None:
            self.provider.load()
        return self._sema.value != 0

    def __call__(self, *args):
        if self._sema is None:
            self.provider.load()
        if self._sema.value:
            self.fire(*args)

    def fire(self, *args):
        """Fire without checking the semaphore (the arguments are converted here)."""
        if len(args) != len(self.kinds):
            raise TypeError("probe %s takes %d arguments, not %d"
                            % (self.name, len(self.kinds), len(args)))
        conv = [str(a).encode("utf-8", "replace") if k is str else int(a)
                for k, a in zip(self.kinds, args)]
        self._fn(*conv)

    def argspec(self):
        return " ".join(("8@%%%s" if k is str else "-8@%%%s") % r
                        for k, r in zip(self.kinds, _REGS))


class Provider:
    """A USDT provider: declare probes, then fire them."""

    def __init__(self, name):
        if not name.isidentifier():
            raise ValueError("provider name must be an identifier: %r" % name)
        self.name = name
        self.probes = {}
        self._lib = None
        self._fd = None
        self.path = None

    def probe(self, name, *kinds, func=None):
        """A probe taking arguments of kinds (int or str); func names the
        function symbol that holds it (default sonde_probe_NAME)."""
        if self._lib is not None:
            raise RuntimeError("provider %s is loaded: declare probes before" % self.name)
        if not name.isidentifier():
            raise ValueError("probe name must be an identifier: %r" % name)
        if len(kinds) > len(_REGS):
            raise ValueError("at most %d arguments" % len(_REGS))
        for k in kinds:
            if k not in (int, str):
                raise TypeError("argument kinds are int or str, not %r" % (k,))
        p = self.probes[name] = Probe(self, name, kinds, func)
        return p

    def load(self):
        if self._lib is not None:
            return self
        image = build_elf(self.name, list(self.probes.values()))
        self._lib, self._fd, self.path = _load(self.name, image)
        for p in self.probes.values():
            p._bind(self._lib)
        return self


def _load(name, image):
    """dlopen the image from a memfd (else a temporary file)."""
    fd = None
    try:
        flags = os.MFD_CLOEXEC
        try:
            with open("/proc/sys/vm/memfd_noexec") as f:
                if f.read().strip() == "1":
                    flags |= 0x10  # MFD_EXEC: asked for explicitly
        except OSError:
            pass
        fd = os.memfd_create("sonde_" + name, flags)
        os.write(fd, image)
        path = "/proc/self/fd/%d" % fd
        return ctypes.CDLL(path), fd, path
    except OSError:
        if fd is not None:
            os.close(fd)
    tmp = tempfile.NamedTemporaryFile(prefix="sonde_%s_" % name, suffix=".so", delete=False)
    with tmp:
        tmp.write(image)
    try:
        return ctypes.CDLL(tmp.name), None, tmp.name
    finally:
        os.unlink(tmp.name)  # the mapping keeps it; tracers use /proc/PID/map_files


class _Strtab:
    def __init__(self):
        self.data = bytearray(b"\0")

    def add(self, s):
        off = len(self.data)
        self.data += s.encode() + b"\0"
        return off


def build_elf(provider, probes):
    """An x86-64 ELF shared object with one USDT probe per entry of probes."""
    n = len(probes)
    dynstr = _Strtab()
    names = [(dynstr.add(p.func), dynstr.add("sonde_sema_" + p.name)) for p in probes]
    nsyms = 1 + 2 * n
    # read-only + text segment, from file offset 0
    hdr_size = 64 + 4 * 56
    hash_off = _align(hdr_size, 8)
    hash_size = 4 * (2 + 1 + nsyms)
    dynsym_off = _align(hash_off + hash_size, 8)
    dynstr_off = dynsym_off + 24 * nsyms
    base_off = dynstr_off + len(dynstr.data)         # .stapsdt.base: one byte
    text_off = _align(base_off + 1, 16)
    text_size = 16 * n
    seg1_end = text_off + text_size
    # writable segment: .dynamic, then the semaphores (.probes)
    dyn_off = _align(seg1_end, _PAGE)
    dyn_entries = [(4, hash_off), (5, dynstr_off), (6, dynsym_off), (10, len(dynstr.data)),
                   (11, 24), (0, 0)]
    sema_off = dyn_off + 16 * len(dyn_entries)
    seg2_end = sema_off + 2 * max(n, 1)
    for i, p in enumerate(probes):
        p._text_off, p._sema_off = text_off + 16 * i, sema_off + 2 * i
    # not loaded: notes, section names, section headers
    note = bytearray()
    for i, p in enumerate(probes):
        desc = struct.pack("<QQQ", text_off + 16 * i, base_off, sema_off + 2 * i)
        desc += b"".join(s.encode() + b"\0" for s in (provider, p.name, p.argspec()))
        note += struct.pack("<III", 8, len(desc), 3) + b"stapsdt\0" + desc
        note += b"\0" * (_align(len(note), 4) - len(note))
    note_off = _align(seg2_end, 8)
    shstr = _Strtab()
    sec_names = {s: shstr.add(s) for s in (".hash", ".dynsym", ".dynstr", ".stapsdt.base",
                                           ".text", ".dynamic", ".probes", ".note.stapsdt",
                                           ".shstrtab")}
    shstr_off = note_off + len(note)
    sh_off = _align(shstr_off + len(shstr.data), 8)
    # section headers: name, type, flags, addr, offset, size, link, info, align, entsize
    A, W, X = 2, 1, 4
    sections = [
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        (sec_names[".hash"], 5, A, hash_off, hash_off, hash_size, 2, 0, 8, 4),
        (sec_names[".dynsym"], 11, A, dynsym_off, dynsym_off, 24 * nsyms, 3, 1, 8, 24),
        (sec_names[".dynstr"], 3, A, dynstr_off, dynstr_off, len(dynstr.data), 0, 0, 1, 0),
        (sec_names[".stapsdt.base"], 1, A, base_off, base_off, 1, 0, 0, 1, 0),
        (sec_names[".text"], 1, A | X, text_off, text_off, text_size, 0, 0, 16, 0),
        (sec_names[".dynamic"], 6, A | W, dyn_off, dyn_off, 16 * len(dyn_entries), 3, 0, 8, 16),
        (sec_names[".probes"], 1, A | W, sema_off, sema_off, 2 * n, 0, 0, 2, 0),
        (sec_names[".note.stapsdt"], 7, 0, 0, note_off, len(note), 0, 0, 4, 0),
        (sec_names[".shstrtab"], 3, 0, 0, shstr_off, len(shstr.data), 0, 0, 1, 0),
    ]
    total = sh_off + 64 * len(sections)
    img = bytearray(total)
    ident = b"\x7fELF" + bytes([2, 1, 1, 0]) + b"\0" * 8
    img[0:64] = ident + struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, 0, 64, sh_off, 0, 64, 56, 4,
                                    64, len(sections), len(sections) - 1)
    phdrs = [
        (1, 4 | 1, 0, 0, 0, seg1_end, seg1_end, _PAGE),                    # PT_LOAD R+X
        (1, 4 | 2, dyn_off, dyn_off, dyn_off, seg2_end - dyn_off, seg2_end - dyn_off, _PAGE),
        (2, 4 | 2, dyn_off, dyn_off, dyn_off, 16 * len(dyn_entries), 16 * len(dyn_entries), 8),
        (0x6474E551, 4 | 2, 0, 0, 0, 0, 0, 16),                             # PT_GNU_STACK RW
    ]
    for i, (typ, flags, off, va, pa, fsz, msz, al) in enumerate(phdrs):
        struct.pack_into("<IIQQQQQQ", img, 64 + 56 * i, typ, flags, off, va, pa, fsz, msz, al)
    # SysV hash with one bucket: every symbol on one chain
    chain = [0] + [i + 1 if i + 1 < nsyms else 0 for i in range(1, nsyms)]
    struct.pack_into("<II", img, hash_off, 1, nsyms)
    struct.pack_into("<I", img, hash_off + 8, 1 if nsyms > 1 else 0)
    struct.pack_into("<%dI" % nsyms, img, hash_off + 12, *chain)
    for i, (fname, sname) in enumerate(names):
        # st_name, st_info (GLOBAL<<4 | FUNC/OBJECT), st_other, st_shndx, value, size
        struct.pack_into("<IBBHQQ", img, dynsym_off + 24 * (1 + 2 * i), fname, 0x12, 0, 5,
                         text_off + 16 * i, 2)
        struct.pack_into("<IBBHQQ", img, dynsym_off + 24 * (2 + 2 * i), sname, 0x11, 0, 7,
                         sema_off + 2 * i, 2)
    img[dynstr_off:dynstr_off + len(dynstr.data)] = dynstr.data
    for i in range(n):
        img[text_off + 16 * i:text_off + 16 * i + 2] = b"\x90\xc3"  # nop; ret
    for i, (tag, val) in enumerate(dyn_entries):
        struct.pack_into("<qQ", img, dyn_off + 16 * i, tag, val)
    img[note_off:note_off + len(note)] = note
    img[shstr_off:shstr_off + len(shstr.data)] = shstr.data
    for i, s in enumerate(sections):
        struct.pack_into("<IIQQQQIIQQ", img, sh_off + 64 * i, *s)
    return bytes(img)


class _AnyEnabled:
    """Fbt.entry / Fbt.ret: enabled() while a tracer listens at that probe
    of any decorated function."""

    def __init__(self, probes):
        self._probes = probes

    def enabled(self):
        return any(p.enabled() for p in self._probes)


class Fbt:
    """A decorator giving functions entry/return probes:
    PROVIDER:entry (qualified name, arguments as text) and
    PROVIDER:return (qualified name, return value as text).  Each function
    gets its own pair, in a provider object of its own whose probe function
    is the function's qualified name: DTrace's fbt$PID::NAME:entry."""

    def __init__(self, provider="fbt"):
        self.name = provider
        self._entries, self._rets = [], []
        self.entry, self.ret = _AnyEnabled(self._entries), _AnyEnabled(self._rets)

    def __call__(self, fn):
        name = fn.__qualname__
        prov = Provider(self.name)
        entry = prov.probe("entry", str, str, func=name)
        ret = prov.probe("return", str, str, func=name)
        prov.load()  # the probes exist from the decoration on
        self._entries.append(entry)
        self._rets.append(ret)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            if not entry.enabled() and not ret.enabled():
                return fn(*args, **kwargs)
            if entry.enabled():
                text = ", ".join([repr(a) for a in args] +
                                 ["%s=%r" % kv for kv in kwargs.items()])
                entry.fire(name, text)
            value = fn(*args, **kwargs)
            if ret.enabled():
                ret.fire(name, repr(value))
            return value
        return wrapper


fbt = Fbt()
