"""Write small real Inspect AI logs for trustlake's `ingest inspect` tests.

Every log is written by inspect-ai itself (the version pinned in
requirements-inspect.txt), running a tiny arithmetic task with its
`mockllm/model` provider: the "agent" is a deterministic function of the
conversation (it calls an `add` tool, then answers), and the grader of the
model-graded scorer is another mockllm model bound to the `grader` role. No
network, no API key.

The task is built so that every mapping rule of the adapter has data:

- scorers: `includes()` (programmatic: the ground truth),
  `model_graded_qa()` (a judge whose grader says C whenever the answer
  claims to be done, so it accepts wrong answers: false positives) and
  `model_graded_fact()` (a careful judge: the same grader model checks the
  expert answer);
- several epochs, and a sample whose answer changes between epochs (D4);
- a sample that hits the message limit (`limit`) and one whose tool raises
  (`error`, with fail_on_error=False so the run goes on).

Usage (from the repository root, with the venv of `make venv`):

    .venv/bin/python python/inspect_logs.py OUT_DIR [VARIANT...]

Variants: zstd (an .eval as inspect-ai writes it: entries zstd-compressed,
ZIP method 93), json (log_format="json": one uncompressed JSON document),
deflate (an .eval whose entries use ZIP deflate, as inspect-ai wrote them
before it switched to zstd: the same writer with its compression kwargs set
to ZIP_DEFLATED), attachments (a sample input with an image, which
inspect-ai moves into the sample's `attachments` and references as
`attachment://<hash>`), unfinished (the process exits in the middle of the
run, leaving an .eval with `_journal/start.json`, journal summaries and the
samples written so far, but no header.json). legacy (run with an older inspect-ai installed in another venv: the log
as that version writes it; not in the default list). Default: all the
others.
The output file names are fixed: arith-<variant>.eval / arith-json.json.

    .venv/bin/python python/inspect_logs.py --bench N OUT.eval

writes one log of N generated questions × 1 epoch (the performance log of
bench/inspect.sh).
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

from inspect_ai import Epochs, Task, eval as inspect_eval, task
from inspect_ai.dataset import Sample
from inspect_ai.model import (
    ChatMessageUser,
    ContentImage,
    ContentText,
    GenerateConfig,
    ModelOutput,
    ModelUsage,
    get_model,
)
from inspect_ai.scorer import includes, model_graded_fact, model_graded_qa
from inspect_ai.solver import generate, use_tools
from inspect_ai.tool import tool

# (id, question, target, the agent's answers by epoch: a number or "loop"/"crash")
QUESTIONS = [
    ("q1", "What is 2 + 3?", "5", ["5", "5", "5"]),
    ("q2", "What is 10 + 7?", "17", ["17", "71", "17"]),  # varies across epochs
    ("q3", "What is 4 + 4?", "8", ["9", "9", "9"]),  # always wrong: the judge still says C
    ("q4", "What is 1 + 1?", "2", ["dunno", "dunno", "dunno"]),  # no claim: the judge says I
    ("q5", "What is 6 + 6?", "12", ["loop", "loop", "loop"]),  # message limit
    ("q6", "What is 3 + 9?", "12", ["12", "crash", "12"]),  # tool error in epoch 2
]
EPOCHS = 3


def _index():
    return {text: (qid, answers) for qid, text, _, answers in QUESTIONS}


_BY_TEXT = _index()

# epoch counter per question, advanced when the agent starts a conversation
_turns: dict[str, int] = {}


@tool
def add():
    async def execute(x: int, y: int) -> str:
        """Add two integers.

        Args:
          x: first addend
          y: second addend
        """
        if x < 0:
            raise RuntimeError("adder backend unavailable")
        return str(x + y)

    return execute


def _question(messages) -> str:
    for m in messages:
        if m.role == "user":
            return m.text
    return ""


def _usage(out: ModelOutput) -> ModelOutput:
    # explicit usage: otherwise mockllm counts tokens with tiktoken, which
    # downloads its encoding from the network
    out.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
    return out


def agent(messages, tools, tool_choice, config) -> ModelOutput:
    if "[BEGIN DATA]" in messages[-1].text:
        # older inspect-ai grades with the evaluated model (no grader role)
        return grader(messages, tools, tool_choice, config)
    return _usage(_agent(messages))


def _agent(messages) -> ModelOutput:
    """The evaluated model: call add once, then answer (by epoch)."""
    q = _question(messages)
    qid, answers = next((i, a) for i, text, _, a in QUESTIONS if text in q)
    n_tool = sum(1 for m in messages if m.role == "tool")
    if n_tool == 0:
        _turns[qid] = _turns.get(qid, -1) + 1
    answer = answers[_turns[qid] % len(answers)]
    x, y = (int(v) for v in re.findall(r"\d+", q)[:2])
    if answer == "loop" or (n_tool == 0):
        if answer == "crash":
            x = -1
        return ModelOutput.for_tool_call("mockllm/model", "add", {"x": x, "y": y})
    if answer == "dunno":
        return ModelOutput.from_content("mockllm/model", "I am not sure what the sum is.")
    return ModelOutput.from_content("mockllm/model", f"The sum is {answer}; I have verified it with the add tool. ANSWER: {answer}. Done.")


def grader(messages, tools, tool_choice, config) -> ModelOutput:
    """The grader. Under model_graded_qa's template it accepts any answer
    that claims to be done (a lenient judge); under model_graded_fact's it
    checks the expert's number against the submission (a careful one)."""
    prompt = messages[-1].text
    if "[Expert]:" in prompt:
        expert = re.search(r"\[Expert\]: (\S+)", prompt).group(1)
        sub = prompt.split("[Submission]:", 1)[1].split("***", 1)[0]
        grade = "C" if re.search(rf"\b{re.escape(expert)}\b", sub) else "I"
    else:
        grade = "C" if "Done." in prompt else "I"
    return _usage(ModelOutput.from_content(
        "mockllm/model", f"The submission {'states a final answer' if grade == 'C' else 'gives no answer'}.\n\nGRADE: {grade}"
    ))


def bench_questions(n: int) -> None:
    """Replace QUESTIONS by n generated ones (1 epoch each), for the
    10,000-sample performance log: every 7th answer is wrong."""
    global QUESTIONS, _BY_TEXT, EPOCHS
    QUESTIONS = []
    for i in range(n):
        a, b = i % 97, i // 97
        answer = str(a + b + (1 if i % 7 == 3 else 0))
        QUESTIONS.append((f"b{i}", f"What is {a} + {b}?", str(a + b), [answer]))
    _BY_TEXT, EPOCHS = _index(), 1


@task
def arith(images: bool = False) -> Task:
    samples = []
    for qid, q, target, _ in QUESTIONS:
        inp = q
        if images and qid == "q1":
            pixel = "data:image/png;base64," + PNG_1X1
            inp = [ChatMessageUser(content=[ContentText(text=q), ContentImage(image=pixel)])]
        samples.append(Sample(id=qid, input=inp, target=target, metadata={"difficulty": "easy"}))
    return Task(
        dataset=samples,
        solver=[use_tools(add()), generate()],
        scorer=[includes(), model_graded_qa(), model_graded_fact()],
        epochs=Epochs(EPOCHS, "mean"),
        message_limit=6,
    )


# a 1x1 transparent PNG
PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="


def _mockllm_callable() -> None:
    """Older inspect-ai (before callable custom_outputs) takes only an
    iterable of outputs; give its mock provider the callable form. Only the
    mock model's replies are affected, never how the log is written."""
    from inspect_ai.model._providers import mockllm

    if "Callable" in (mockllm.MockLLM.__init__.__doc__ or "") + (mockllm.MockLLM.__doc__ or ""):
        return
    init, generate = mockllm.MockLLM.__init__, mockllm.MockLLM.generate

    def new_init(self, model_name, base_url=None, api_key=None, config=None, custom_outputs=None, **kw):
        fn = custom_outputs if callable(custom_outputs) else None
        init(self, model_name, base_url, api_key, config or GenerateConfig(), None if fn else custom_outputs, **kw)
        self._fn = fn

    async def new_generate(self, input, tools, tool_choice, config):
        if self._fn is not None:
            return self._fn(input, tools, tool_choice, config)
        return await generate(self, input, tools, tool_choice, config)

    mockllm.MockLLM.__init__, mockllm.MockLLM.generate = new_init, new_generate


def run(log_dir: str, log_format: str = "eval", images: bool = False, exit_after: int = 0, bench: bool = False) -> str:
    """Run the task once; return the path of the log written."""
    _turns.clear()
    _mockllm_callable()
    if exit_after:
        # leave the log unfinished: exit the process without any cleanup
        # once exit_after agent conversations have started.
        orig = agent

        def dying(messages, tools, tool_choice, config):
            if sum(_turns.values()) + len(_turns) >= exit_after and not any(m.role == "tool" for m in messages):
                os._exit(17)
            return orig(messages, tools, tool_choice, config)

        model = get_model("mockllm/model", custom_outputs=dying)
    else:
        model = get_model("mockllm/model", custom_outputs=agent)
    logs = inspect_eval(
        arith(images=images),
        model=model,
        model_roles={"grader": get_model("mockllm/model", custom_outputs=grader)},
        log_dir=log_dir,
        log_format=log_format,
        # one conversation at a time: the mock agent's epoch counter is
        # deterministic (the bench log has one epoch: no counter to keep)
        max_samples=100 if bench else 1,
        fail_on_error=False,
        retry_on_error=0,
        log_buffer=500 if bench else 1,
        display="none",
    )
    return logs[0].location


def variant(name: str, out_dir: str) -> str:
    tmp = tempfile.mkdtemp()
    try:
        if name == "zstd":
            src = run(tmp)
        elif name == "json":
            src = run(tmp, log_format="json")
        elif name == "attachments":
            src = run(tmp, images=True)
        elif name == "deflate":
            import inspect_ai._util.zipfile as zf

            zf.zipfile_compress_kwargs.update(compression=zipfile.ZIP_DEFLATED, compresslevel=None)
            src = run(tmp)
        elif name == "legacy":
            # run with an older inspect-ai in its own venv (see the README
            # of the fixtures): whatever format that version writes
            src = run(tmp)
        elif name == "unfinished":
            # a child process runs the eval and dies after 8 conversations
            code = subprocess.call([sys.executable, __file__, "--die", tmp])
            if code != 17:
                raise SystemExit(f"unfinished run: exit code {code}, want 17")
            src = next(os.path.join(tmp, f) for f in os.listdir(tmp) if f.endswith(".eval"))
        else:
            raise SystemExit(f"unknown variant {name!r}")
        ext = ".json" if name == "json" else ".eval"
        dst = os.path.join(out_dir, f"arith-{name}{ext}")
        shutil.copyfile(src, dst)
        return dst
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def bench_log(n: int, out: str) -> None:
    """Write the performance log: N samples × 1 epoch. Running N mock
    conversations costs inspect-ai about 40 ms of CPU each (10,000: minutes),
    so the task runs for real on 50 generated questions and inspect-ai's own
    writer (write_eval_log) writes a log whose samples are those 50
    repeated under new ids (b0, b1, ...). Same format, same writer;
    bench/inspect.sh reads it back with read_eval_log."""
    from inspect_ai.log import read_eval_log, write_eval_log

    real = 50
    bench_questions(real)
    tmp = tempfile.mkdtemp()
    try:
        log = read_eval_log(run(tmp, bench=True))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    base = log.samples
    log.samples = [base[i % real].model_copy(update={"id": f"b{i}", "uuid": f"{base[i % real].uuid}-{i}"}) for i in range(n)]
    log.eval.dataset.samples = n
    log.eval.dataset.sample_ids = [s.id for s in log.samples]
    log.results.total_samples = log.results.completed_samples = n
    log.reductions = None
    write_eval_log(log, out)


VARIANTS = ["zstd", "json", "deflate", "attachments", "unfinished"]

if __name__ == "__main__":
    if sys.argv[1] == "--die":
        run(sys.argv[2], exit_after=8)
        raise SystemExit("the run finished; it should have died")
    if sys.argv[1] == "--bench":
        bench_log(int(sys.argv[2]), sys.argv[3])
        raise SystemExit(0)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for v in sys.argv[2:] or VARIANTS:
        print(variant(v, out))
