"""Shared fixtures: every test gets its own HEDGEROW_HOME and no third-party plugin autoload.

Also the suite's bytecode cache (`share_bytecode`: with ``PYTHONDONTWRITEBYTECODE`` set,
every peer process the tests start would compile the whole package again), the Hypothesis
profile of the suite (no timing checks: the suite runs on parallel workers, on machines busy
with other work), and `HookCalls`: the ``hedgerow`` hooks called
during the session (the `hook_calls` fixture).
"""

from __future__ import annotations

import os
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator, MutableMapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
EXAMPLES = ROOT / "docs" / "examples"
if str(TESTS) not in sys.path:  # lets tests import the toy games as `toygames`
    sys.path.insert(0, str(TESTS))
if str(EXAMPLES) not in sys.path:  # and the documented example game as `goofspiel`
    sys.path.insert(0, str(EXAMPLES))



def share_bytecode(environ: MutableMapping[str, str] = os.environ) -> Path | None:
    """Where the suite caches compiled modules when ``PYTHONDONTWRITEBYTECODE`` forbids
    ``__pycache__`` folders beside the sources (None when it does not).

    The suite starts hundreds of Python processes (peers, ``hedgerow`` commands, xdist
    workers); without a cache each compiles every module it imports, a quarter of a bot
    peer's CPU.  This keeps the sources' folders clean, as the variable asks, and caches
    under ``PYTHONPYCACHEPREFIX`` in the temporary folder instead (a prefix already set is
    kept): this process and every process it starts read and write it there.  Python checks
    each cached module against its source's size and time, so a stale entry is never used.
    """
    if not environ.get("PYTHONDONTWRITEBYTECODE"):
        return None
    prefix = environ.get("PYTHONPYCACHEPREFIX") or str(
        Path(tempfile.gettempdir()) / f"hedgerow-tests-pycache-{os.getuid()}")
    environ["PYTHONPYCACHEPREFIX"] = prefix
    del environ["PYTHONDONTWRITEBYTECODE"]
    if environ is os.environ:
        sys.pycache_prefix = prefix  # this process too (pytest's assertion rewriting)
        sys.dont_write_bytecode = False
    return Path(prefix)


#: The suite's bytecode cache, and whether it was still empty when this run began.
BYTECODE = share_bytecode()
BYTECODE_COLD = BYTECODE is not None and not BYTECODE.exists()

# Hypothesis' deadline (200 ms an example) and its too-slow health check are timings: on a
# loaded machine they fail tests whose behaviour is right.  Every example is still run and
# checked; a test's own @settings still chooses how many.
settings.register_profile("hedgerow", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("hedgerow")


@pytest.fixture(autouse=True)
def hedgerow_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """A fresh user data directory for each test."""
    home = tmp_path_factory.mktemp("hedgerow-home")
    monkeypatch.setenv("HEDGEROW_HOME", str(home))
    monkeypatch.delenv("HEDGEROW_PLUGINS", raising=False)
    monkeypatch.delenv("HEDGEROW_BLOCK_PLUGINS", raising=False)
    return home


@pytest.fixture(autouse=True)
def zmq_contexts_closed() -> Iterator[None]:
    """Every ZeroMQ context the test made in this process is closed at its end (see
    tests/zmqcontexts.py: one left open would hang a later test); one left open is named."""
    import zmqcontexts

    zmqcontexts.track()
    yield
    for left in zmqcontexts.close_leftovers():
        warnings.warn(f"the test left a ZeroMQ context open: {left}", stacklevel=1)


@pytest.fixture
def toy_host():
    """A host with only the toy games of tests/toygames.py."""
    import toygames

    return toygames.toy_host()


@pytest.fixture
def goofspiel_host():
    """A host with the built-ins and the example game of docs/examples/goofspiel.py."""
    import goofspiel

    from hedgerow.core.pluginhost import PluginHost

    return PluginHost(autoload=False, extra=[goofspiel])


#: Workers the suite runs on when pytest-xdist is installed and no ``-n`` is given (most tests
#: wait on peer processes, sockets and terminals, so more workers than cores pays).
WORKERS = 4


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """Run on `WORKERS` xdist workers, each taking the next test when it is free, unless the
    command says otherwise (``-n N``, ``-n 0`` or ``-p no:xdist`` for one process; ``--pdb``)
    or this is a worker itself.  The README's ``python -m pytest`` is the parallel run."""
    if (not config.pluginmanager.hasplugin("xdist") or hasattr(config, "workerinput")
            or config.option.numprocesses is not None or config.option.usepdb):
        return
    config.option.numprocesses = WORKERS
    if config.option.dist == "no":
        config.option.dist = "worksteal"


def subprocess_env(**extra: str) -> dict[str, str]:
    """The environment for a `hedgerow` subprocess in a test."""
    env = dict(os.environ)
    env.update(extra)
    return env


class HookCalls:
    """Every ``hedgerow`` hook called in this test process, by name (a session-wide record).

    Each plugin manager of the ``hedgerow`` project gets pluggy's hook-call monitoring as it
    is created, so the historic ``hedgerow_addhooks`` calls and the games' extension hooks
    (called through a table's relay) are seen too.  `PluginHost` calls the registration hooks one
    implementation at a time (to tell each its origin), past pluggy's hook caller, so the
    method that does it is wrapped as well.  tests/core/test_hooks_documented.py reads it.
    """

    def __init__(self) -> None:
        self.called: set[str] = set()
        self._undo: list[Callable[[], None]] = []

    def install(self) -> None:
        import pluggy

        from hedgerow.core.hookspecs import PROJECT
        from hedgerow.core.pluginhost import PluginHost

        init = pluggy.PluginManager.__init__
        each_impl = PluginHost._each_impl
        called = self.called

        def before(hook_name: str, _impls: object, _kwargs: object) -> None:
            called.add(hook_name)

        def after(*_args: object) -> None:
            pass

        def recording_init(pm: pluggy.PluginManager, project_name: str) -> None:
            init(pm, project_name)
            if project_name == PROJECT:
                pm.add_hookcall_monitoring(before, after)

        def recording_each_impl(plugins: PluginHost, hook_name: str, make_register: Any) -> None:
            called.add(hook_name)
            each_impl(plugins, hook_name, make_register)

        pluggy.PluginManager.__init__ = recording_init  # type: ignore[method-assign]
        PluginHost._each_impl = recording_each_impl  # type: ignore[method-assign]

        def undo() -> None:
            pluggy.PluginManager.__init__ = init  # type: ignore[method-assign]
            PluginHost._each_impl = each_impl  # type: ignore[method-assign]

        self._undo.append(undo)

    def uninstall(self) -> None:
        while self._undo:
            self._undo.pop()()


HOOK_CALLS = HookCalls()


def pytest_configure(config: pytest.Config) -> None:
    HOOK_CALLS.install()
    fill_bytecode_before_workers(config)


def fill_bytecode_before_workers(config: pytest.Config) -> None:
    """Fill an empty bytecode cache (`share_bytecode`) once before xdist's workers start.

    Each worker collects the whole suite, compiling every test module (with pytest's
    assertion rewriting) and what it imports; started together on an empty cache, all of
    them compile everything (about 7 s of CPU each).  One collection in a child process
    first leaves them the cache to read.  Nothing else changes: the workers still collect
    the tests themselves."""
    import subprocess

    workers = getattr(config.option, "numprocesses", None)
    if (not BYTECODE_COLD or not workers or hasattr(config, "workerinput")
            or config.option.collectonly):
        return
    subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist",
                    "-p", "no:cacheprovider", *config.args],
                   cwd=config.invocation_params.dir, stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def pytest_unconfigure(config: pytest.Config) -> None:
    HOOK_CALLS.uninstall()


@pytest.fixture(scope="session")
def hook_calls() -> HookCalls:
    """The names of the ``hedgerow`` hooks called so far in this session (`HookCalls`)."""
    return HOOK_CALLS
