"""The command line contracts of DESIGN.md: gouji rules beats / classify, gouji replay."""

import json

import pytest

from assistant.cli import main


@pytest.mark.parametrize(
    ("argv", "out"),
    [
        (["rules", "beats", "25555", "22244", "--ruleset", "irvine"], "true"),
        (["rules", "beats", "BJ 5555", "SJ 444", "--ruleset", "irvine"], "false"),
        (["rules", "beats", "99999", "22888"], "true"),
        (["rules", "beats", "BJ BJ", "BJ", "--ruleset", "qingdao+joker_multi_cover"], "true"),
    ],
)
def test_rules_beats_prints_true_or_false(capsys, argv, out):
    assert main(argv) == 0
    assert capsys.readouterr().out.strip() == out


@pytest.mark.parametrize("argv", [["rules", "beats", "55X", "44"],
                                  ["rules", "classify", "BJ Z"]])
def test_bad_token_is_a_one_line_error_naming_it_exit_2(capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "invalid card token" in err and len(err.splitlines()) == 1
    assert "'X'" in err or "'Z'" in err


def test_rules_classify_prints_json(capsys):
    assert main(["rules", "classify", "22333", "--ruleset", "qingdao"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {k: data[k] for k in ("legal", "rank", "count", "gouji", "opens")} == {
        "legal": True, "rank": "3", "count": 5, "gouji": False, "opens": False}


def test_replay_prints_the_state_json(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    log.write_text('{"type":"round","first":0}\n{"type":"play","seat":0,"cards":"55"}\n'
                   '{"type":"play","seat":1,"cards":"44"}\n', encoding="utf-8")
    assert main(["replay", str(log)]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["counts"]["0"] == 34 and state["errors"][0]["line"] == 3


def test_replay_of_a_missing_file_exits_2(capsys, tmp_path):
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2


def test_replay_of_a_file_that_is_no_log_exits_2_naming_it(capsys, tmp_path):
    video = tmp_path / "game.mp4"   # given for the log by mistake
    video.write_bytes(b"\x00\x00\x00\x18ftypmp42\x9f\x92\x96")
    assert main(["replay", str(video)]) == 2
    assert capsys.readouterr().err == f"gouji replay: error: {video}: not a text file (not UTF-8)\n"
