"""The command line stops quietly when the program reading its output goes away.

``aisizer example worked-example | head -1`` closes the pipe after one line; on Linux the next
write raises BrokenPipeError, on Windows OSError(EINVAL). Either must end the command with
status 1 and no traceback (Python docs, ``signal``, "Note on SIGPIPE"), not a crash log.
"""

from __future__ import annotations

import errno
import subprocess
import sys

import pytest

from app import cli


def test_reader_closing_the_pipe_gives_no_traceback(tmp_path):
    scenario = tmp_path / "worked-example.json"
    scenario.write_text(subprocess.run([sys.executable, "-m", "app", "example", "worked-example"],
                                       capture_output=True, text=True, check=True).stdout)
    command = [sys.executable, "-m", "app", "size", str(scenario), "--json"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        proc.stdout.close()  # the reader goes away before the sizing writes (as `| head -0`):
        # its first write meets a closed pipe, always; a child that hangs instead fails the
        # test after two minutes (communicate skips the closed stdout, reads stderr to the end)
        try:
            _, stderr_bytes = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            proc.kill()  # else leaving the `with` would wait for it for ever
            raise
        stderr, status = stderr_bytes.decode(), proc.returncode
    assert "Traceback" not in stderr
    assert status == 1


@pytest.mark.parametrize("error", [BrokenPipeError(errno.EPIPE, "Broken pipe"),
                                   OSError(errno.EINVAL, "Invalid argument")])
def test_closed_output_ends_with_status_one(monkeypatch, error):
    def write_to_closed_pipe(args):
        raise error

    monkeypatch.setattr(cli, "cmd_example", write_to_closed_pipe)
    monkeypatch.setattr(cli, "_stdout_is_closed", lambda: True)
    monkeypatch.setattr(cli, "_quit_after_closed_output", lambda: 1)
    assert cli.main(["example", "worked-example"]) == 1


def test_other_os_errors_are_not_swallowed(monkeypatch):
    def fail(args):
        raise OSError(errno.EINVAL, "Invalid argument")

    monkeypatch.setattr(cli, "cmd_example", fail)
    monkeypatch.setattr(cli, "_stdout_is_closed", lambda: False)
    with pytest.raises(OSError):
        cli.main(["example", "worked-example"])
