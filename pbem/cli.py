"""The `pbem` command.  Each command parses its arguments, calls one library function and maps PbemError to
exit code 2 with a one-line message.  No rules logic lives here."""
from __future__ import annotations

import re
import sys

# Ctrl-C while the modules below load: one line, exit code 130, no traceback.  The `pbem` script's
# pbem.launch has done this already; `python -m pbem.cli` gets it here.  A program importing this module
# keeps its own handler.  Python's own handler is back at the end of this module.
from .launch import install as _install, restore as _restore, say_interrupted as _say_interrupted

_STARTING = __name__ == "__main__" and _install()

from pathlib import Path  # noqa: E402  (after the handler: these imports take most of the start-up)
from typing import Annotated, Callable, Optional  # noqa: E402

import typer  # noqa: E402
from typer.core import TyperGroup  # noqa: E402

from . import __version__  # noqa: E402
from .errors import PbemError  # noqa: E402

# click's UsageError (vendored by newer typer, a dependency of older): the base of BadParameter in both
_ClickUsageError = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")


class _OneLineUsage(_ClickUsageError):
    def show(self, file=None) -> None:
        typer.echo(f"pbem: {self.format_message()}", err=True)


class _Group(TyperGroup):
    """Mistakes in a command's arguments (an unknown option, a value that is not a number, a missing argument)
    are answered with one line, like every other mistake, instead of click's usage block."""

    def make_context(self, *args, **kwargs):
        try:
            return super().make_context(*args, **kwargs)
        except KeyboardInterrupt:  # typer imports more while it reads the arguments: "interrupted", not silence
            raise SystemExit(_say_interrupted()) from None

    def invoke(self, ctx):
        words = [*getattr(ctx, "protected_args", ()), *ctx.args]  # the command line as given, before click takes it
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:  # outside a command's guard (say while its arguments are read): not "Aborted!"
            raise SystemExit(_say_interrupted()) from None
        except _ClickUsageError as exc:
            if isinstance(exc, _OneLineUsage) or type(exc).__name__ == "NoArgsIsHelpError":
                raise
            name = exc.ctx.info_name if exc.ctx is not None and exc.ctx.info_name != "pbem" else None
            where = f"pbem {name}" if name else "pbem"
            param = getattr(exc, "param", None)
            if param is not None and "valid integer" in exc.format_message():  # not the validation library's words
                opts = getattr(param, "opts", None) or []
                hint = opts[0] if opts and str(opts[0]).startswith("-") else str(param.name).upper()
                raise _OneLineUsage(f"{name + ': ' if name else ''}{hint}{_given(exc)}: "
                                    f"{number_hint(str(param.name))}") from None
            short = getattr(exc, "option_name", "") if type(exc).__name__ == "NoSuchOption" else ""
            dash_file = next((w for w in words if short and w.startswith(short) and w.lower().endswith(
                (".yaml", ".yml", ".txt"))), "")
            if dash_file and name in ("submit", "check"):
                # `pbem submit C -athens.yaml`: a file whose name starts with a dash (a moderator's review)
                raise _OneLineUsage(f"{name}: {dash_file} reads as an option: give a file whose name starts with a "
                                    f"dash after --, as in `{where} ... -- {dash_file}`") from None
            raise _OneLineUsage(f"{name + ': ' if name else ''}{exc.format_message().rstrip('.')} "
                                f"(see `{where} --help`)") from None


def number_hint(name: str) -> str:
    """What to write for a number argument, in words: a game turn for TURN and --turn, else a whole number."""
    return "write a game turn number, e.g. 3" if name == "turn" else "write a whole number, e.g. 3"


def _given(exc: BaseException) -> str:
    """The value a number argument was given, as the validation error behind ``exc`` holds it ('' if unknown)."""
    cause = exc.__cause__
    try:
        value = cause.errors()[0]["input"]  # pydantic's ValidationError, under typer's BadParameter
    except (AttributeError, IndexError, KeyError, TypeError):
        return ""
    return f" {value!r}" if isinstance(value, str) else ""


# "-3" given as a number argument is the number, not an unknown option (the command then says what is wrong)
NUMBER_ARGUMENTS = {"ignore_unknown_options": True}

app = typer.Typer(
    name="pbem",
    cls=_Group,
    help="Play-by-email turn processor for a wargame of war and politics in the ancient Aegean (430 BC).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def fail(message: str, code: int = 2) -> None:
    """The command's one-line answer and exit code.  Its answer is given: a Ctrl-C from here on is ignored
    (``launch.done``), or it would add "interrupted" under the answer and change the exit code to 130 (the Ctrl-C
    sweep test, on a busy machine: a refused rollback said both)."""
    from .launch import COMMAND, done
    if COMMAND[0]:  # (not inside a test's process, whose own Ctrl-C must still work)
        done()
    typer.echo(f"pbem: {message}", err=True)
    raise typer.Exit(code)


def open_campaign(campaign_dir: Path, writes: bool = True):
    """The campaign folder a command was given, opened (``Campaign.open``); for a command that ``writes``, once no
    other pbem command is at work on it (``storage.wait_until_free``: up to 30 seconds), so that what it reads is
    what that command left.  One that only reads (status, show, verify, bot) goes ahead at once, as before (a
    code review: they waited, then failed, while a long run-turn wrote its reports)."""
    from .storage import Campaign, wait_until_free
    _opened[:] = [campaign_dir]
    if writes:
        wait_until_free(campaign_dir)
    return Campaign.open(campaign_dir)


_opened: list[Path] = []  # the campaign folder the command opened: an error names its files relative to it


def first_turn(turn: int | None, what: str = "--turn") -> None:
    """A game turn given on the command line: turns start at 1."""
    if turn is not None and turn < 1:
        from .errors import UsageError
        raise UsageError(f"{what} {turn}: game turns start at 1")


INTERRUPTED_AFTER = "interrupted, once the change under way was made whole (audit.log has its line); nothing after it"
INTERRUPTED_TURN = ("interrupted; a turn is committed whole or not at all: check with `pbem status` (and `pbem "
                    "report` if reports are missing)")


def guarded(fn: Callable[[], int | None], commits_turn: bool = False, held: bool = False,
            campaign_dir: Path | None = None) -> None:
    """Run a command body; a PbemError becomes a one-line message and its exit code, never a traceback.
    ``commits_turn``: the command may commit a game turn (run-turn, adjudicate, demo), so Ctrl-C says how to
    see whether it did; any other command just says it was interrupted.  ``held``: a quick command that makes
    one change (seat, adjust, rollback) holds a Ctrl-C until it has said what it did (a review: an interrupted
    `seat` replaced the secret and never showed the new one).  ``campaign_dir``: the campaign folder the command
    was given; an error about its missing ``secret/`` says why when the folder looks unpacked from an archive."""
    from .storage import held_interrupts
    _opened.clear()
    try:
        if held:
            with held_interrupts():
                code = fn()
        else:
            code = fn()
    except PbemError as exc:
        fail(str(exc) + _unpacked(campaign_dir, str(exc)), exc.exit_code)
    except KeyboardInterrupt as exc:
        from .storage import HeldInterrupt
        fail(INTERRUPTED_TURN if commits_turn else INTERRUPTED_AFTER if isinstance(exc, HeldInterrupt) else
             "interrupted", 130)
    except BrokenPipeError:  # `pbem show ... | head`: before OSError, of which it is one
        raise typer.Exit(0)
    except OSError as exc:  # a file or folder the user named (or the campaign's) cannot be used
        from .storage import failed
        # named relative to the campaign folder (a full disk: `pbem: orders/turn-002/athens.yaml: No space ...`)
        message = failed(exc, _opened[0]) if exc.filename and _opened else f"{exc.filename or 'a file'}: " \
            f"{exc.strerror or exc}"
        if not exc.filename and not _stdout_writes(exc):  # cron's `>> log` on a full disk (a moderator's review:
            # "a file: No space left on device" for a deadline that was set, files ingest had taken)
            message = (f"standard output: {exc.strerror or exc}; the command stopped where it could not write what "
                       f"it had to say, after what it had done by then (audit.log records every change)")
        fail(message + _unpacked(campaign_dir, message), 2)
    if code:
        raise typer.Exit(code)


def _stdout_writes(exc: OSError) -> bool:
    """False when ``exc`` came from writing to standard output: raised inside click's ``echo`` (``typer.echo``),
    with no file named."""
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        parts = code.co_filename.replace("\\", "/").split("/")
        if code.co_name == "echo" and ("click" in parts or "_click" in parts):  # typer has its own copy of click
            return False
        tb = tb.tb_next
    return True


def _unpacked(campaign_dir: Path | None, message: str) -> str:
    """``moderation.unpacked_hint`` for an error that names the campaign's secret/ folder, else ''."""
    if campaign_dir is None or "secret/" not in message.replace("\\", "/") or "unpacked from" in message:
        return ""
    from .moderation import unpacked_hint
    return unpacked_hint(campaign_dir)


def print_upgrade_note(camp) -> None:
    """``cycle.upgrade_note``, printed when there is one (status, adjudicate --dry-run)."""
    from .cycle import upgrade_note
    note = upgrade_note(camp)
    if note:
        typer.echo(note)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"pbem {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: Annotated[Optional[bool], typer.Option("--version", callback=_version, is_eager=True,
                                                    help="Print the version and exit.")] = None,
) -> None:
    """pbem: run a play-by-email campaign of war and politics in the ancient Aegean."""


@app.command()
def new(
    campaign_dir: Annotated[Path, typer.Argument(metavar="DIR", help="Folder to create for the campaign (must not exist or be empty).")],
    players: Annotated[str, typer.Option("--players", "-p",
                                         help="Home cities, comma-separated: athens,sparta,troy (2 to 12).")],
    seed: Annotated[Optional[str], typer.Option(help="Derive all dice from this number (tests, demos): anyone "
                                                     "can find the number from the seed fingerprint and work out "
                                                     "every die. Default: 256 random bits.")] = None,
    map_file: Annotated[Optional[Path], typer.Option("--map", help="A map file (YAML) instead of the default Aegean.")] = None,
    option: Annotated[Optional[list[str]], typer.Option("--option", "-o",
                                                       help="Campaign option NAME or NAME=VALUE; repeat for more. "
                                                            "Known: early_victory, last_turn=N.",
                                                       metavar="NAME[=VALUE]")] = None,
    name: Annotated[Optional[str], typer.Option(help="Campaign name (default: the folder's name).")] = None,
) -> None:
    """Create a campaign: home cities, starting forces, leaders, traits, deck, hands, turn order (R-SET-1..6)."""
    def body() -> None:
        from .campaign import create
        _once(option, "option", key=lambda item: item.partition("=")[0].strip().replace("-", "_"))
        created = create(campaign_dir, players.split(","), seed, map_file, option or [], name)
        camp = created.campaign
        state = camp.load_state()
        typer.echo(f"Created campaign {camp.config['name']!r} in {camp.root}")
        typer.echo("Turn order: " + ", ".join(f"{i}. {state.players[p].name}" for i, p in
                                              enumerate(state.turn_order, 1)))
        typer.echo(f"Seed fingerprint (publish it to the players): sha256 {camp.config['seed_sha256']}")
        typer.echo(f"Turn-key fingerprint (publish it with the seed's; send turn-keys.txt to the referee): "
                   f"sha256 {created.keys_fingerprint}")
        typer.echo(f"Player secrets are in {camp.secret_dir / 'players.yaml'}: hand each player their own.")
        from .report import write_reports
        with camp.lock():
            write_reports(camp, 0)  # the set-up reports: what each player starts with, map and kit (template)
        typer.echo(f"Set-up reports in {camp.reports_dir(0)}. Next, in this order:")
        typer.echo(f"  1. set the first deadline: pbem deadline {camp.root} +7d")
        typer.echo(f"  2. write the set-up reports again with it in them: pbem report {camp.root} --turn 0")
        typer.echo(f"  3. send each player their folder in {camp.reports_dir(0)} (with its kit/ and order template) "
                   f"and their secret")
        if created.guessable:
            typer.echo("warning: --seed was given, so anyone can work out this campaign's dice: the number is found "
                       "by trying numbers against the seed fingerprint every player is shown. Use it for tests and "
                       "demos only (the player secrets are random all the same).", err=True)
    guarded(body)


@app.command()
def show(
    campaign_dir: Annotated[Path, typer.Argument(metavar="DIR", help="The campaign folder.")],
    player: Annotated[Optional[str], typer.Option("--player", "-p",
                                                  help="Show only what this player may see (fog of war).")] = None,
    turn: Annotated[Optional[int], typer.Option(help="The snapshot at the start of this game turn (default: now).")] = None,
) -> None:
    """Print the state of a campaign readably: everything (moderator) or one player's view."""
    def body() -> None:
        from .textview import show as show_text
        first_turn(turn)
        camp = open_campaign(campaign_dir, writes=False)
        typer.echo(show_text(camp, player, turn), nl=False)  # a player's kit is shown as its player sees it
    guarded(body)


@app.command()
def adjudicate(
    campaign_dir: Annotated[Path, typer.Argument(metavar="DIR", help="The campaign folder.")],
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Print what would happen; the turn is not run (one "
                                                            "audit.log line records the dry run).")] = False,
    force: Annotated[bool, typer.Option("--force", help="Run the turn now even if it is not due (orders missing, "
                                                        "deadline not passed, held after a rollback); audited.")] = False,
) -> None:
    """Resolve the current game turn from the accepted order files (R-TURN-3..6), without writing reports.
    Only when the turn is due, as for run-turn, unless --force."""
    def body() -> None:
        from datetime import datetime, timezone
        from .errors import UsageError
        camp = open_campaign(campaign_dir)
        if dry_run:
            if force:
                raise UsageError("--force goes without --dry-run (a dry run needs no due turn)")
            from .cycle import before_any_die, status
            from .turn import run, summary
            with camp.lock():  # a stored file changed by hand, a held turn's seen files left out: said before any die
                changed = before_any_die(camp, status(camp))
            if changed:
                raise UsageError(changed)
            typer.echo(summary(run(camp, dry_run=True), True), nl=False)
            print_upgrade_note(camp)
            return
        from .cycle import adjudicate as do_adjudicate, upgrade_note
        note = upgrade_note(camp)  # of the turn before this one: once it has run, this pbem ran the last turn
        result, message = do_adjudicate(camp, datetime.now(timezone.utc), force)
        print_committed(camp, result, message, note)
    guarded(body, commits_turn=not dry_run, campaign_dir=campaign_dir)


@app.command()
def report(
    campaign_dir: Annotated[Path, typer.Argument(metavar="DIR", help="The campaign folder.")],
    turn: Annotated[Optional[int], typer.Option(help="The adjudicated game turn (default: the last one); 0: the "
                                                     "set-up reports `pbem new` writes.")] = None,
    player: Annotated[Optional[str], typer.Option("--player", "-p",
                                                  help="One player (or 'moderator'); default: everyone and the moderator.")] = None,
) -> None:
    """Write the turn reports: report.html, report.txt, map.svg, map.png and report.pdf per player."""
    def body() -> None:
        from .report import main as report_main
        from .cycle import ReportsInterrupted
        if turn != 0:
            first_turn(turn)
        camp = open_campaign(campaign_dir)
        with camp.lock():
            try:
                out = report_main(campaign_dir, turn, player)
            except KeyboardInterrupt:
                raise ReportsInterrupted(camp, turn if turn is not None else camp.current_turn - 1) from None
        typer.echo(out, nl=False)
    guarded(body)


@app.command()
def status(
    campaign_dir: Annotated[Path, typer.Argument(metavar="DIR", help="The campaign folder.")],
) -> None:
    """Turn, deadline, who has sent orders, who is missing (NMR), days left."""
    def body() -> None:
        from datetime import datetime, timezone
        from .cycle import status as get_status
        camp = open_campaign(campaign_dir, writes=False)
        typer.echo(get_status(camp).render(datetime.now(timezone.utc)), nl=False)
        from .moderation import unpacked_hint
        hint = unpacked_hint(camp.root)
        if hint:
            typer.echo(f"note: no secret/ folder: no turn can be run here{hint}")
        print_upgrade_note(camp)
    guarded(body)


@app.command()
def deadline(
    campaign_dir: Annotated[Path, typer.Argument(metavar="DIR", help="The campaign folder.")],
    when: Annotated[str, typer.Argument(help="Deadline of the current turn: 2026-12-01, 2026-12-01T18:00 (UTC) or +7d.")],
) -> None:
    """Set the deadline of the current game turn (recorded in the audit log)."""
    def body() -> None:
        from datetime import datetime, timezone
        from .cycle import fmt, set_deadline
        camp = open_campaign(campaign_dir)
        now = datetime.now(timezone.utc)
        with camp.lock():
            done = set_deadline(camp, when, now)
        when_dt = done.when
        typer.echo(f"Deadline of game turn {camp.current_turn}: {fmt(when_dt)}"
                   + (f" ({done.counted_from})" if done.counted_from else ""))
        if done.earlier:
            typer.echo(f"warning: the new deadline {fmt(when_dt)} is earlier than the one it replaces, "
                       f"{fmt(done.before)}", err=True)
        reports_reminder(camp, "the deadline as it was")
        if when_dt < now:
            typer.echo(f"warning: {fmt(when_dt)} is in the past: the turn is due now, and the next "
                       f"`pbem run-turn` runs it", err=True)
    guarded(body)


def reports_reminder(camp, what: str) -> None:
    """One `note:` line when the reports (and kits) sent for the current turn exist: they show ``what``, so they
    are to be written again before they are sent (the set-up reports (0), or the last turn's)."""
    shown = camp.current_turn - 1
    if camp.reports_dir(shown).is_dir():
        typer.echo(f"note: the reports in {camp.reports_dir(shown)} show {what}; write them again with "
                   f"`pbem report {camp.root} --turn {shown}` before you send them")


@app.command()
def check(
    orders_file: Annotated[Path, typer.Argument(help="Your order file (YAML).")],
    campaign: Annotated[Optional[Path], typer.Option("--campaign", "-c",
                                                     help="The campaign folder, to check against the current state.")] = None,
    format: Annotated[str, typer.Option("--format", help="text or json.")] = "text",
) -> None:
    """Check an order file before sending it: every mistake at once, with file:line:column and a hint.
    Exit 0: clean (warnings allowed); 1: findings; 2: the file or campaign cannot be used."""
    if format not in ("text", "json"):
        fail(f"check: --format {format!r}: write text or json")
    from .checker import main as check_main
    out, code = check_main(orders_file, campaign, format)
    typer.echo(safe_json(out) if format == "json" else safe_text(out), nl=False)
    raise typer.Exit(code)


def safe_text(out: str) -> str:
    """Text of a file a player wrote, as pbem prints it: every control, format or lone surrogate character (a
    ``"\\ud800"`` escape in a YAML value, an ESC, a bidi override) escaped line by line, as in intake's answers,
    so the output can always be written and never drives the terminal."""
    from .storage import printable
    return "\n".join(printable(line) for line in out.split("\n"))


def safe_json(out: str) -> str:
    """JSON text with every such character left as a ``\\u`` escape of four hex digits (json.dumps keeps them
    raw with ensure_ascii=False): the same JSON, printable and always encodable.  Outside strings JSON text holds
    only printable ASCII and newlines, so every one of them is inside a string, where an escape means the same."""
    if all(ch.isprintable() or ch == "\n" for ch in out):
        return out

    def esc(ch: str) -> str:
        if ch == "\n" or ch.isprintable():
            return ch
        code = ord(ch)
        if code > 0xFFFF:  # a UTF-16 pair, as JSON writes it
            code -= 0x10000
            return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
        return f"\\u{code:04x}"
    return "".join(esc(ch) for ch in out)


@app.command()
def submit(
    campaign_dir: Annotated[Path, typer.Argument(metavar="DIR", help="The campaign folder.")],
    files: Annotated[list[Path], typer.Argument(help="Order files a player sent.")],
    late_ok: Annotated[bool, typer.Option("--late-ok", help="Accept files after the deadline (moderator's call).")] = False,
    fix: Annotated[bool, typer.Option("--fix", help="The moderator replaces a file of a rolled-back turn or a "
                                                    "computer player's seat (audited).")] = False,
    force: Annotated[bool, typer.Option("--force", help="With --fix: take the fix even though the turn was "
                                                        "dry-run (audited as forced; `pbem verify` lists it).")] = False,
) -> None:
    """Authenticate, check and store order files for the current turn; print the answer for each.
    Exit 0: all accepted; 1: some refused (each answer says why)."""
    def body() -> int:
        from datetime import datetime, timezone
        from .errors import UsageError
        from .intake import reply, submit_path
        if force and not fix:
            raise UsageError("--force goes with --fix (a moderator's fix after a dry run of the turn)")
        camp = open_campaign(campaign_dir)
        missing = [f for f in files if not f.exists() and not f.is_symlink()]
        if missing:  # the moderator's typo, not a player's file: nothing is answered or audited
            raise UsageError(f"{missing[0]}: no such file; nothing was submitted")
        folders = [f for f in files if f.is_dir() and not f.is_symlink()]
        if folders:  # so is a folder named where a file goes
            raise UsageError(f"{folders[0]}: is a folder; nothing was submitted (to take in a folder of files use "
                             f"`pbem ingest {campaign_dir} --from {folders[0]}`)")
        refused = 0
        from .intake import not_taken, shown_name
        from .storage import held_interrupts
        with camp.lock():
            for i, f in enumerate(files):
                try:
                    with held_interrupts():  # a Ctrl-C waits until this file is answered, replied and shown
                        answer = submit_path(camp, f, datetime.now(timezone.utc), late_ok, fix, force)
                        try:
                            reply(camp, answer)
                        finally:  # a reply that cannot be kept (a full disk): the answer stands, shown first
                            typer.echo(answer.text(), nl=False)
                except PbemError as exc:  # (a full disk) the files after it were not taken: said so, by name
                    exc.args = (str(exc) + not_taken([shown_name(camp, str(g)) for g in files[i + 1:]], False),)
                    raise
                refused += not answer.accepted
        return 1 if refused else 0
    guarded(body, campaign_dir=campaign_dir)


@app.command()
def ingest(
    campaign_dir: Annotated[Path, typer.Argument(metavar="DIR", help="The campaign folder.")],
    drop: Annotated[Path, typer.Option("--from", help="The drop folder where players' files arrive.")],
    late_ok: Annotated[bool, typer.Option("--late-ok", help="Accept files after the deadline.")] = False,
) -> None:
    """Take every file in a drop folder: answer it, and move it to DROP/accepted/ or DROP/refused/ (secrets
    withheld, folders readable by you only).
    Exit 0: all accepted (or no files); 1: some refused (each answer says why)."""
    def body() -> int:
        from datetime import datetime, timezone
        from .intake import ingest as do_ingest
        camp = open_campaign(campaign_dir)
        answers: list = []
        left: list = []
        try:
            with camp.lock():
                do_ingest(camp, drop, datetime.now(timezone.utc), late_ok, answers, left)
        except (KeyboardInterrupt, PbemError):  # the files answered before a Ctrl-C or an error (a full disk):
            for a in answers:  # their answers are shown all the same
                typer.echo(a.text(), nl=False)
            raise
        for a in answers:
            typer.echo(a.text(), nl=False)
        if not answers and not left:
            typer.echo(f"{drop}: no files to take")
        for held in left:
            typer.echo(f"warning: {held} is a campaign folder: left in the drop folder, never moved nor answered; "
                       f"move it out", err=True)
        return 1 if left or any(not a.accepted for a in answers) else 0
    guarded(body, campaign_dir=campaign_dir)


@app.command("run-turn")
def run_turn(
    campaign_dir: Annotated[Path, typer.Argument(metavar="DIR", help="The campaign folder.")],
    force: Annotated[bool, typer.Option("--force", help="Run now even if orders are missing and the deadline has not passed.")] = False,
    no_reports: Annotated[bool, typer.Option("--no-reports", help="Do not write the reports.")] = False,
) -> None:
    """Adjudicate the turn when every player is in or the deadline has passed (R-TURN-5), then write reports."""
    def body() -> None:
        from datetime import datetime, timezone
        from .cycle import run_turn as do_run, upgrade_note
        camp = open_campaign(campaign_dir)
        note = upgrade_note(camp)  # of the turn before this one: once it has run, this pbem ran the last turn
        result, message = do_run(camp, datetime.now(timezone.utc), force, reports=not no_reports)
        print_committed(camp, result, message, note)
    guarded(body, commits_turn=True, campaign_dir=campaign_dir)


@app.command()
def seat(
    campaign_dir: Annotated[Path, typer.Argument(metavar="DIR", help="The campaign folder.")],
    player: Annotated[str, typer.Argument(help="The faction, e.g. athens.")],
    who: Annotated[str, typer.Argument(help="human or bot (the computer player).")],
    reason: Annotated[str, typer.Option(help="Why (written to the audit log).")],
) -> None:
    """Hand a faction to the computer player, say one in civil disorder, or back to a human (audited). A file
    the former holder stored for the current turn is set aside (kept beside it, named in audit.log)."""
    def body() -> None:
        from .cycle import change_seat
        from .errors import UsageError
        from .intake import frozen
        if not reason.strip():
            raise UsageError("--reason: say why (it goes in the audit log)")
        camp = open_campaign(campaign_dir)
        pid, seat_now = player.strip().lower(), who.strip().lower()
        with camp.lock():
            done = change_seat(camp, pid, seat_now, reason)
            held = frozen(camp, camp.current_turn)
        if done.before == seat_now:  # a way to give a faction a new secret (say one that leaked): said, not silent
            typer.echo(f"{pid} was already played by: {seat_now}; its secret was replaced all the same")
            if held and done.set_aside is None and (camp.orders_dir(done.turn) / f"{pid}.yaml").is_file():
                typer.echo(f"{pid}'s file for turn {done.turn} stays: the turn is held after a rollback and its files "
                           f"are fixed; if it is not the player's, replace it with `pbem submit {camp.root} FILE "
                           f"--fix --force`")
        else:
            typer.echo(f"{pid} is now played by: {seat_now}")
        if done.set_aside is not None:
            where = done.set_aside.relative_to(camp.root).as_posix()
            if seat_now == "bot":
                typer.echo(f"{pid}'s file for turn {done.turn}, sent by the former player, is set aside: kept as "
                           f"{where}; the computer player writes {pid}'s orders when the turn runs")
            elif done.before == seat_now:  # a new secret: the stored file was sent with the old one, maybe a thief's
                typer.echo(f"{pid}'s file for turn {done.turn}, sent with the former secret, is set aside: kept as "
                           f"{where}; the player sends it again with the new secret, or {pid} has no orders (NMR)")
            else:
                then = (f"the turn is held after a rollback: take the new player's file with `pbem submit "
                        f"{camp.root} FILE --fix --force`" if held else
                        f"the new player must send a file for turn {done.turn}, or {pid} has no orders (NMR)")
                typer.echo(f"{pid}'s file for turn {done.turn}, stored for the computer player's seat, is set "
                           f"aside: kept as {where}; {then}")
        if seat_now == "human":
            typer.echo(f"New secret for {pid} (hand it to the player; the old one no longer works): {done.secret}")
            from datetime import datetime, timezone
            from .cycle import deadline, fmt
            due = deadline(camp)
            if done.set_aside is not None and not held and due is not None and datetime.now(timezone.utc) > due:
                typer.echo(f"warning: the deadline of turn {done.turn} has passed ({fmt(due)}): the turn is due, so a "
                           f"scheduled run-turn may run it with {pid} NMR first, and the player's new file is late: "
                           f"take it with `pbem submit {camp.root} FILE --late-ok`, or set a new deadline first",
                           err=True)
        if held and done.before != seat_now and (seat_now == "bot" or done.set_aside is not None):
            typer.echo(f"warning: game turn {camp.current_turn} was run and rolled back: "
                       + (f"a computer player's file for {pid} where the seen run had " +
                          ("another" if done.set_aside is not None else "none") if seat_now == "bot" else
                          f"another file for {pid} than the seen run had")
                       + " gives other dice, and `pbem verify` flags it (docs/moderator.md)", err=True)
    guarded(body, held=True, campaign_dir=campaign_dir)


@app.command()
def bot(
    campaign_dir: Annotated[Path, typer.Argument(metavar="DIR", help="The campaign folder.")],
    player: Annotated[str, typer.Argument(help="The faction to write orders for.")],
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write the order file here; `-o -` "
                                                   "or no -o: print it.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace a file that exists already (say one you "
                                                        "edited).")] = False,
) -> None:
    """Write the computer player's order file for one faction, from that faction's fogged view only (its
    secret reads `withheld`, as in stored files: submit it with --fix, or write the player's secret in)."""
    def body() -> None:
        from .cycle import bot_file
        from .errors import UsageError
        from .storage import atomic_write
        camp = open_campaign(campaign_dir, writes=False)
        state = camp.load_state()
        pid = player.strip().lower()
        if pid not in state.players:
            raise UsageError(f"player {player!r} is not in this campaign ({', '.join(state.turn_order)})")
        # the very file run-turn stores for a computer seat (secret withheld), so `verify` takes it as the
        # computer player's when the moderator submits it with --fix
        to_file = output is not None and str(output) != "-"
        if force and not to_file:
            raise UsageError("--force goes with -o FILE (it replaces that file); printed orders replace nothing")
        if to_file:
            _outside(camp, output)
            if output.exists() and not force:  # it may be one the moderator edited: never lost unasked
                raise UsageError(f"{output}: exists already; give --force to replace it, or -o to name another "
                                 f"file (-o - prints the orders)")
        text = bot_file(camp, state, pid).decode("utf-8")
        if to_file:
            try:
                atomic_write(output, text)
            except OSError as exc:  # a full disk: named, and never "written"
                raise UsageError(f"{output}: cannot be written ({exc.strerror or exc}); nothing was written") \
                    from None
            typer.echo(f"Orders for {pid}, turn {state.turn}, written to {output}")
        else:
            print_whole(text, "the orders")
    guarded(body)


def print_committed(camp, result, message: str, note: str | None) -> None:
    """What run-turn or adjudicate tells of the turn it ran (``result``: None if none ran), and the upgrade
    ``note``.  Standard output that cannot take it (cron's `>> log` on the full disk) fails after the commit: said
    as such (``CommittedButFailed``), never as a turn that did not run (a code review)."""
    try:
        print_whole(message + (f"{note}\n" if note else ""), "the summary")
    except PbemError as exc:
        if result is None:
            raise
        from .cycle import CommittedButFailed
        raise CommittedButFailed(camp, result.turn, str(exc)) from None


def print_whole(text: str, what: str) -> None:
    """Print ``text`` and make sure it was written (a full disk behind a redirection fails at the flush): never
    report success for output that was lost.  A closed pipe (`| head`) stays quiet, as everywhere."""
    from .errors import PbemError
    try:
        typer.echo(text, nl=False)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        were = "were" if what.endswith("s") else "was"
        raise PbemError(f"standard output: {exc.strerror or exc}; {what} {were} not written whole") from None


def _outside(camp, path: Path) -> None:
    """Refuse to write a file the user named inside the campaign folder (it could replace campaign data), or
    in place of anything but a plain file: a link, a device, a pipe (see ``moderation.writable_target``)."""
    from .errors import UsageError
    from .moderation import writable_target
    root, target = camp.root.resolve(), Path(path).resolve()
    if target == root or root in target.parents:
        raise UsageError(f"{path}: write it outside the campaign folder")
    writable_target(Path(path))
    if not target.parent.is_dir():  # a typo in a path makes no folders: the same for every command
        raise UsageError(f"{path}: the folder {Path(path).parent} does not exist")


def _once(items: list[str] | None, what: str, key=lambda item: item.strip()) -> None:
    """Refuse an option repeated for the same thing (``key``): `--remove U --remove U`, `--option last_turn=1
    --option last_turn=2`; the last would win silently."""
    from .errors import UsageError
    seen: set = set()
    for item in items or []:
        if key(item) in seen:
            raise UsageError(f"--{what} {key(item)} is given twice; give each once")
        seen.add(key(item))


def _pairs(items: list[str] | None, what: str, number: bool = False) -> dict:
    """KEY=VALUE options; ``number``: a change written with its sign (+5, -3), so `athens=5` (set to 5? add 5?)
    is never guessed."""
    from .errors import UsageError
    out: dict = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--{what} {item!r}: write KEY=VALUE")
        if key.strip() in out:  # which one was meant (or the sum)? never guessed, never one silently dropped
            raise UsageError(f"--{what} {key.strip()} is given twice; give each once")
        if number:
            v = value.strip()
            if not re.fullmatch(r"[+-][0-9]+", v):  # ASCII digits: '²'.isdigit() is true, and int() refuses it
                raise UsageError(f"--{what} {item!r}: write the change with its sign, like {key.strip()}=+5 to add "
                                 f"or {key.strip()}=-3 to take away")
            if len(v.lstrip("+-0")) > 9:  # past any treasury (and int() refuses 4300 digits)
                raise UsageError(f"--{what} {key.strip()}: the change is too large")
            out[key.strip()] = int(v)
        else:
            out[key.strip()] = value.strip()
    return out


@app.command(context_settings=NUMBER_ARGUMENTS)
def rollback(
    campaign_dir: Annotated[Path, typer.Argument(metavar="DIR", help="The campaign folder.")],
    turn: Annotated[int, typer.Argument(help="Go back to the start of this game turn.")],
    reason: Annotated[str, typer.Option(help="Why (written to the audit log).")],
) -> None:
    """Go back to the start of an earlier turn; later files are moved to archive/, never deleted."""
    def body() -> None:
        from .moderation import rollback as do_rollback
        first_turn(turn, "turn")
        camp = open_campaign(campaign_dir)
        with camp.lock():
            done = do_rollback(camp, turn, reason)
        typer.echo(f"Back at the start of game turn {turn}; later turns kept in {done.dest}")
        from .cycle import fmt
        typer.echo(f"Deadline of game turn {turn}: {fmt(done.deadline)}" + (
            " (its own, as it was before the turn ran)" if done.deadline_known else
            f" (audit.log records none for turn {turn}; a held turn needs none: it runs only with --force)"))
        typer.echo(f"Game turn {turn} is held: fix what needs fixing (`pbem submit --fix`, `pbem adjust`), then "
                   f"run `pbem run-turn {camp.root} --force`")
        moved = done.seats_changed
        if moved:  # a chaos soak: a seat changed after the turn ran went unsaid until `verify` flagged the re-run
            typer.echo(f"warning: the seat of {', '.join(moved)} is not what it was when game turn {turn} ran: run "
                       f"again so, the turn draws other dice than the ones its players saw, and `pbem verify` flags "
                       f"it; set the seat back with `pbem seat`, or take the file you mean as a forced fix "
                       f"(docs/moderator.md)", err=True)
        published = done.keys_published
        if published:  # a moderator's review: the guide asks for a word to the players, pbem said nothing
            typer.echo(f"warning: the key of game turn{'s' if len(published) > 1 else ''} "
                       f"{', '.join(map(str, published))} was published (audit.log): whoever holds it (and the "
                       f"turn's start snapshot, as a referee does) can work out that turn's dice for any order "
                       f"files, so tell the players it is being played again "
                       f"(docs/moderator.md)", err=True)
        if done.lost_adjustments:
            typer.echo(f"warning: {len(done.lost_adjustments)} adjustment(s) made with `pbem adjust` after turn "
                       f"{turn} are lost (their files moved to {done.dest / 'state'}): "
                       + "; ".join(done.lost_adjustments) + "; make them again if they still apply", err=True)
    guarded(body, held=True)


@app.command()
def adjust(
    campaign_dir: Annotated[Path, typer.Argument(metavar="DIR", help="The campaign folder.")],
    reason: Annotated[str, typer.Option(help="Why (written to the audit log).")],
    gold: Annotated[Optional[list[str]], typer.Option(help="PLAYER=+N or PLAYER=-N; repeat for more.", metavar="P=+N")] = None,
    move: Annotated[Optional[list[str]], typer.Option(help="UNIT=HEX (its cargo goes along); repeat for more.", metavar="U=HEX")] = None,
    remove: Annotated[Optional[list[str]], typer.Option(help="UNIT to take off the board; repeat for more.", metavar="UNIT")] = None,
    control: Annotated[Optional[list[str]], typer.Option(help="CITY=PLAYER or CITY=neutral; repeat for more.", metavar="C=P")] = None,
) -> None:
    """Correct the current snapshot by hand (audited; the previous file is kept)."""
    def body() -> None:
        from .moderation import adjust as do_adjust
        camp = open_campaign(campaign_dir)
        ctl = {k: (None if v.lower() == "neutral" else v) for k, v in _pairs(control, "control").items()}
        _once(remove, "remove")
        with camp.lock():
            done = do_adjust(camp, reason, _pairs(gold, "gold", number=True), _pairs(move, "move"), remove or [], ctl)
        typer.echo("Adjusted: " + "; ".join(done))
        from .moderation import campaign_corrections
        state = camp.load_state()
        last = [c for c in campaign_corrections(camp, state.turn, state) if c.turn == state.turn][-1:]
        touched = sorted(set().union(*last[0].owners)) if last and last[0].owners else []
        if len(touched) > 1:
            typer.echo(f"note: this correction touches {', '.join(touched)}: each sees their own part in their "
                       f"report, but not your --reason, which might tell of the others; to tell each player why, "
                       f"correct each one in an adjust of its own")
        reports_reminder(camp, "the state as it was before this adjustment (and their kits check orders against "
                               "it)")
    guarded(body, held=True)


@app.command()
def archive(
    campaign_dir: Annotated[Path, typer.Argument(metavar="DIR", help="The campaign folder.")],
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="The .tar.gz to write (default: "
                                                   "DIR-archive.tar.gz beside the campaign folder).")] = None,
    reveal_seed: Annotated[bool, typer.Option("--reveal-seed", help="Publish the secret seed (only once the game is over).")] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace an archive file that exists already.")] = False,
    abandon: Annotated[bool, typer.Option("--abandon", help="With --reveal-seed: close a campaign stopped before "
                                                            "its end (no more turns run; players can verify it).")] = False,
    without_reports: Annotated[bool, typer.Option("--without-reports", help="Leave the reports/ folder out (most of "
                                                  "the size; `pbem report DIR --turn N` writes them again).")] = False,
) -> None:
    """Pack the campaign into one .tar.gz (player secrets left out)."""
    def body() -> None:
        from .errors import UsageError
        from .moderation import archive as do_archive, live_secret_files
        camp = open_campaign(campaign_dir)
        if output is not None:
            if str(output) == "-":
                raise UsageError("-o -: an archive is written to a file, whole or not at all; name the file")
            _outside(camp, output)
        with camp.lock():
            out = do_archive(camp, output, reveal_seed, replace=force, abandon=abandon, reports=not without_reports)
            leaks = live_secret_files(camp)
        typer.echo(f"Archived to {out}")
        from .storage import closed
        if not camp.load_state().finished and not closed(camp.root):
            typer.echo(f"warning: the game is not over: {out.name} holds every hidden fact so far (hands, units out "
                       f"of sight, every die); it is readable by you only: hand it to a neutral referee, never to a "
                       f"player", err=True)
        if leaks:
            first = leaks[0].relative_to(camp.root)
            typer.echo(f"warning: {len(leaks)} stored order file(s) still hold a player's live secret (stored before "
                       f"pbem withheld secrets), e.g. {first}: whoever has the archive can send orders as that "
                       f"player; give new secrets with `pbem seat {camp.root} PLAYER human` before sharing it",
                       err=True)
    guarded(body, campaign_dir=campaign_dir)


@app.command()
def verify(
    campaign_dir: Annotated[Path, typer.Argument(metavar="DIR", help="A campaign folder or an unpacked archive.")],
    turn: Annotated[Optional[int], typer.Option(help="Only this game turn.")] = None,
    key: Annotated[Optional[str], typer.Option(help="The turn's published key (`pbem turn-key`), with --turn.")] = None,
    fingerprint: Annotated[Optional[str], typer.Option(help="The seed fingerprint (sha256) published when the "
                                                            "campaign began: the revealed seed must match it.")] = None,
    keys_fingerprint: Annotated[Optional[str], typer.Option(help="The turn-key fingerprint (sha256) published when "
                                                                 "the campaign began: turn-keys.txt must match it.")]
    = None,
) -> None:
    """Replay adjudicated turns and check they come out exactly as stored (R-TURN-6). Exit 1 on a mismatch.
    A turn's key given with --key must first be the one turn-keys.txt committed to when the campaign began."""
    def body() -> int:
        from .verify import made_with_other_version, turns_run_with_other_versions, verify as do_verify
        first_turn(turn)
        camp = open_campaign(campaign_dir, writes=False)
        verdicts = do_verify(camp, turn, key, fingerprint, keys_fingerprint)
        made_with = made_with_other_version(camp)
        if made_with:  # a turn replays byte for byte only with the pbem that ran it
            typer.echo(f"note: this campaign was created with pbem {made_with}, this is pbem {__version__}: a turn "
                       f"played with another version may replay differently (a MISMATCH); verify with the version "
                       f"that ran it (docs/moderator.md, 'Upgrading')")
        others = turns_run_with_other_versions(camp, turn)
        if others:  # audit.log names the version that ran each turn: which to verify with is known
            typer.echo(f"note: audit.log records {'; '.join(f'{_turns(t)} run with pbem {v}' for v, t in others.items())}"
                       f", this is pbem {__version__}: verify {'it' if sum(map(len, others.values())) == 1 else 'each'}"
                       f" with the version that ran it (docs/moderator.md, \"Upgrading\")")
        for v in verdicts:
            what = {-2: "turn keys", -1: "seed", 0: "set-up"}.get(v.turn, f"turn {v.turn}")
            typer.echo(f"{what}: {v.heading}: {v.detail}")
            for flag in v.flags:
                typer.echo(f"  flagged: {flag}")
            for note in v.notes:
                typer.echo(f"  {note}")
        return 0 if all(v.ok for v in verdicts) else 1
    guarded(body)


def _turns(turns: list[int]) -> str:
    """"turn 3", "turns 1, 2 and 5"."""
    if len(turns) == 1:
        return f"turn {turns[0]}"
    return f"turns {', '.join(map(str, turns[:-1]))} and {turns[-1]}"


@app.command("turn-key", context_settings=NUMBER_ARGUMENTS)
def turn_key_cmd(
    campaign_dir: Annotated[Path, typer.Argument(metavar="DIR", help="The campaign folder.")],
    turn: Annotated[int, typer.Argument(help="An adjudicated game turn.")],
) -> None:
    """Print the key of an adjudicated turn: publish it and anyone with the archive can check that turn's dice
    (`pbem verify --turn T --key KEY`) without learning any other turn's."""
    def body() -> None:
        from .verify import published_key
        first_turn(turn, "turn")
        camp = open_campaign(campaign_dir)
        with camp.lock():
            key = published_key(camp, turn)
            camp.audit(f"turn key of turn {turn} published")
        typer.echo(key)
    guarded(body, campaign_dir=campaign_dir)


@app.command()
def demo(
    campaign_dir: Annotated[Path, typer.Argument(metavar="DIR", help="Folder for the demo campaign (a previous demo there is replaced).")]
    = Path("pbem-demo"),
    players: Annotated[int, typer.Option(help="Number of computer players (2 to 12).")] = 6,
    turns: Annotated[int, typer.Option(help="Play through this game turn (0: only set up).")] = 36,
    seed: Annotated[str, typer.Option(help="Seed for the whole demo.")] = "2026",
    reports: Annotated[bool, typer.Option("--reports/--no-reports", help="Write every player's report each turn.")] = True,
) -> None:
    """Create a campaign of computer players and play it through turn T, with reports."""
    def body() -> None:
        from datetime import datetime, timezone
        from .campaign import demo_campaign
        from .cycle import run_turn as do_run
        from .mapsvg import warm_static
        from .report import ReportsInBackground, in_background
        from .gamedata import tables
        from .textview import render
        from .visibility import view
        from .errors import UsageError
        if turns < 0:
            raise UsageError(f"--turns {turns}: play through game turn 1 or later, or give 0 to only set up")
        with demo_campaign(campaign_dir, players, seed) as camp:  # the lock is held for the whole run
            now = datetime.now(timezone.utc)
            last = min(turns, camp.load_state().last_turn)
            if last > 0:
                # each turn's reports written by a forked process while the next turn is played (two cores)
                background = ReportsInBackground(camp) if reports and in_background() else None
                if background is not None:
                    warm_static(camp.game_map)  # built once: every turn's writer inherits it
                try:
                    with typer.progressbar(range(last), label=f"Playing {last} turns", file=sys.stderr) as bar:
                        for _ in bar:
                            result, _msg = do_run(camp, now, force=True, reports=reports and background is None)
                            if result is not None and background is not None:
                                background.start(result.turn)
                            if result is None or result.after.finished:
                                break
                finally:
                    if background is not None:
                        background.wait()
            state = camp.load_state()
        typer.echo(render(view(state, camp.game_map, None), camp.game_map, tables()), nl=False)
        where = f"; reports in {camp.root / 'reports'}" if reports and last else ""
        typer.echo(f"\nDemo campaign in {camp.root} (seed {seed}){where}.")
    guarded(body, commits_turn=True)


def main() -> None:
    from .launch import COMMAND
    COMMAND[0] = True
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(_say_interrupted())
    except BrokenPipeError:  # `pbem show ... | head`
        sys.stderr.close()
    finally:  # `python -m pbem.cli` as the `pbem` command: a Ctrl-C once it has answered is ignored
        from .launch import done
        done()


if _STARTING:
    _restore()

if __name__ == "__main__":
    main()
