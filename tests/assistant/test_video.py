"""The live view: a video source runs through the pipeline into annotated JPEG frames."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import httpx
import numpy as np
import pytest

from assistant.app import create_app
from assistant.feed import PipelineSubmitter
from assistant.pipeline import PipelineStats
from assistant.video import FrameHub
from tests.assistant.assistant_helpers import LiveServer, make_settings
from tests.helpers import write_bumped_video
from tracker.plays import PlaySegmenter
from tracker.table import TableLayout, load_view, save_view
from vision.capture import CaptureStats
from vision.detections import Detections
from vision.stabilize import CameraPose, StabilizerStats
from vision.synth.scene import make_table_texture


class NoCards:
    """A detector that sees an empty table (the model is not what is tested here)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def __call__(self, image: np.ndarray) -> Detections:
        return Detections.empty()


def write_video(path: Path, frames: int = 18, size: tuple[int, int] = (320, 240)) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), 12, size)
    for index in range(frames):
        image = np.full((size[1], size[0], 3), (40, 110, 40), np.uint8)
        cv2.circle(image, (20 + 10 * index, 120), 12, (255, 255, 255), -1)
        writer.write(image)
    writer.release()


def camera_once_ended(http: httpx.Client, *, within: float = 10) -> dict[str, Any]:
    """``GET /api/camera`` once the source has played out."""
    deadline = time.monotonic() + within
    while (camera := http.get("/api/camera").json())["status"] != "ended":
        assert time.monotonic() < deadline, camera
        time.sleep(0.05)
    return camera


@pytest.fixture
def table_with_video(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> LiveServer:
    """A server reading a short 320×240 video of an empty table whose table file was drawn on
    640×480 frames (a camera set to another resolution than at calibration)."""
    monkeypatch.setattr("vision.detector.Detector", NoCards)
    video, table = tmp_path / "game.mp4", tmp_path / "table.json"
    write_video(video)
    TableLayout.default([(80, 40), (560, 40), (560, 440), (80, 440)], (640, 480)).save(table)
    return LiveServer(create_app(make_settings(tmp_path, source=str(video), table=table,
                                               frame_rate=30)))


def test_video_frames_reach_the_page_with_the_seat_zones(table_with_video: LiveServer) -> None:
    with table_with_video as server, httpx.Client(base_url=server.url) as http:
        assert http.get("/api/info").json()["video"] is True
        deadline = time.monotonic() + 10
        while (frame := http.get("/api/frame.jpg")).status_code == 404:
            assert time.monotonic() < deadline, "no frame arrived"
            time.sleep(0.05)
        image = cv2.imdecode(np.frombuffer(frame.content, np.uint8), cv2.IMREAD_COLOR)
        assert image.shape == (480, 640, 3)  # shown in the table file's pixels
        # the zones are drawn over the picture: seat 0's zone border is not table green
        assert (np.abs(image.astype(int) - (40, 110, 40)).sum(axis=2) > 120).any()
        with http.stream("GET", "/api/video.mjpg") as stream:
            assert stream.headers["content-type"].startswith("multipart/x-mixed-replace")
            received = b""
            for chunk in stream.iter_bytes():
                received += chunk
                if b"\xff\xd9" in received:
                    break
        assert received.startswith(b"--frame\r\nContent-Type: image/jpeg")


def test_saving_the_zones_keeps_the_view_they_were_drawn_on(table_with_video: LiveServer,
                                                             tmp_path: Path) -> None:
    table = tmp_path / "table.json"
    with table_with_video as server, httpx.Client(base_url=server.url) as http:
        deadline = time.monotonic() + 10
        while (frame := http.get("/api/frame.jpg")).status_code == 404:
            assert time.monotonic() < deadline, "no frame arrived"
            time.sleep(0.05)
        zones = [seat["polygon"] for seat in http.get("/api/table").json()["seats"]]
        assert load_view(table, (640, 480)) is None
        assert http.put("/api/table", json={"zones": zones}).status_code == 200
    view = load_view(table, (640, 480))   # in the table file's pixels
    assert view is not None
    shown = cv2.imdecode(np.frombuffer(frame.content, np.uint8), cv2.IMREAD_COLOR)

    def not_cloth(image: np.ndarray) -> float:
        return float((np.abs(image.astype(int) - (40, 110, 40)).sum(axis=2) > 120).mean())

    # The table and its ball as the camera saw them, without the zones the page draws over.
    assert 0.001 < not_cloth(view) < 0.01 < not_cloth(shown)


def test_serve_holds_a_camera_moved_since_calibration_to_the_view_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("vision.detector.Detector", NoCards)
    video, table = tmp_path / "game.mp4", tmp_path / "table.json"
    cloth = make_table_texture(640, 480, np.random.default_rng(5), kind="cloth")
    write_bumped_video(video, bump_at=-3, shift=(14, 8), cloth=cloth)   # moved before the start
    TableLayout.default([(80, 40), (560, 40), (560, 440), (80, 440)], (640, 480)).save(table)
    save_view(table, cloth)
    server = LiveServer(create_app(make_settings(tmp_path, source=str(video), table=table,
                                                 frame_rate=30)))
    with server, httpx.Client(base_url=server.url) as http:
        camera = camera_once_ended(http, within=20)
    assert camera["moves"] == 1 and camera["shift"] == pytest.approx(16.1, abs=0.5)


def test_a_served_pipeline_holds_plays_below_the_confidence_set(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    held_below = []
    real_init = PlaySegmenter.__init__

    def init(self: PlaySegmenter, *args: Any, **options: Any) -> None:
        real_init(self, *args, **options)
        held_below.append(self.review_conf)

    monkeypatch.setattr(PlaySegmenter, "__init__", init)
    monkeypatch.setattr("vision.detector.Detector", NoCards)
    video, table = tmp_path / "game.mp4", tmp_path / "table.json"
    write_video(video)
    TableLayout.default([(80, 40), (560, 40), (560, 440), (80, 440)], (640, 480)).save(table)
    server = LiveServer(create_app(make_settings(tmp_path, source=str(video), table=table,
                                                 review_conf=0.5)))
    with server, httpx.Client(base_url=server.url) as http:
        camera_once_ended(http)
    assert held_below == [0.5]


@pytest.mark.browser
def test_the_page_says_when_the_video_source_stops(table_with_video: LiveServer,
                                                   browser: Any) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    with table_with_video as server, httpx.Client(base_url=server.url) as http:
        page = browser.new_page(viewport={"width": 1600, "height": 900})
        page.goto(server.url + "/")
        expect(page.locator("#camera-alert")).to_contain_text("video stopped: end of the video",
                                                             timeout=10_000)
        expect(page.locator("#camera-alert")).to_contain_text("18 帧 frames · 0 丢 dropped")
        camera = http.get("/api/camera").json()
        assert camera["status"] == "ended" and camera["frames"] == 18
        assert camera["source"].endswith("game.mp4")
        page.close()


@pytest.mark.browser
def test_a_held_play_shows_its_picture_where_one_was_kept(
        table_with_video: LiveServer, browser: Any) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    _, jpeg = cv2.imencode(".jpg", np.full((80, 120, 3), (0, 0, 255), np.uint8))
    with table_with_video as server:
        send = PipelineSubmitter(server.app.state.live)
        url = f"/api/games/{server.app.state.live.game.id}/plays/2/picture"
        send({"type": "round", "first": 0, "source": "inferred", "seq": 1})
        send({"type": "play", "seat": 0, "cards": "55", "source": "vision", "review": True,
              "reason": "unsure card (conf 0.31)", "seq": 2})
        send.picture(2, jpeg.tobytes())
        send({"type": "play", "seat": 1, "cards": "66", "source": "vision", "review": True,
              "reason": "unsure card (conf 0.33)", "seq": 3})   # its picture never kept
        send({"type": "play", "seat": 2, "cards": "77", "source": "vision", "review": True,
              "reason": "unsure card (conf 0.35)", "seq": 4})   # its picture comes later
        page = browser.new_page(viewport={"width": 1600, "height": 900})
        page.goto(server.url + "/")
        held = page.locator("#held li")
        expect(held).to_have_count(3)
        picture = held.nth(0).locator(".picture img")
        expect(picture).to_have_attribute("src", url)
        page.wait_for_function(
            "() => document.querySelector('#held li .picture img')?.naturalWidth === 120")
        assert held.nth(0).locator(".picture").get_attribute("href") == url
        send.picture(4, jpeg.tobytes())   # once kept, the page shows it
        page.wait_for_function("() => document.querySelector("
                               "'#held li[data-seq=\"4\"] .picture img')?.naturalWidth === 120")
        expect(held.nth(1).locator(".picture")).to_have_count(0)   # no empty frame
        expect(held.nth(1)).to_contain_text("unsure card (conf 0.33)")
        # Any play vision committed links to its picture from the event log.
        expect(page.locator('#log li[data-seq="2"] a')).to_have_attribute("href", url)
        expect(page.locator('#log li[data-seq="1"] a')).to_have_count(0)   # the round
        expect(page.locator('#log li[data-seq="3"] a')).to_have_count(0)   # none kept
        page.close()


def test_a_lost_camera_is_told_with_how_long_and_why() -> None:
    hub = FrameHub()
    assert hub.camera().status == "none"
    hub.source = "rtsp://table.local/stream"
    assert hub.camera().status == "opening"
    hub.capture = CaptureStats()
    assert hub.camera().status == "opening"
    hub.capture.frames = 40
    assert hub.camera().status == "live"
    hub.capture.lost_since = time.monotonic() - 3
    hub.capture.dropped = hub.capture.reconnects = 5
    hub.capture.report("lost camera or stream rtsp://table.local/stream; reopening")
    camera = hub.camera()
    assert (camera.status, camera.frames, camera.dropped, camera.reconnects) == ("lost", 40, 5, 5)
    assert camera.lost_for is not None and 3 <= camera.lost_for < 60
    assert camera.message == "lost camera or stream rtsp://table.local/stream; reopening"
    hub.capture.lost_since = None
    assert hub.camera().status == "live" and hub.camera().lost_for is None


def test_the_cameras_moves_are_told_and_a_picture_past_following_alarms() -> None:
    hub = FrameHub()
    hub.source, hub.capture = "0", CaptureStats(frames=40)
    camera = hub.camera()
    assert (camera.status, camera.moves, camera.unfollowed, camera.message) == ("live", 0, 0, None)
    motion = StabilizerStats(pose=CameraPose(12.0, -5.0, 0.3), moves=2)
    hub.pipeline = PipelineStats(camera_motion=motion)
    camera = hub.camera()
    assert (camera.status, camera.moves, camera.shift, camera.turn) == ("live", 2, 13.0, 0.3)
    assert camera.message is None
    motion.unfollowed, motion.message = 1, "past following: calibrate the table again"
    camera = hub.camera()
    assert (camera.status, camera.unfollowed) == ("live", 1)
    assert camera.message == "past following: calibrate the table again"


def test_seat_zones_too_small_to_read_are_told() -> None:
    hub = FrameHub()
    hub.source, hub.capture, hub.pipeline = "0", CaptureStats(frames=40), PipelineStats()
    assert hub.camera().zones_warning is None
    hub.pipeline.zones_warning = "the seat zones cover a square only 180 px wide"
    assert hub.camera().zones_warning == "the seat zones cover a square only 180 px wide"


@contextlib.contextmanager
def camera_alert(tmp_path: Path, browser: Any, video: Path, table: TableLayout) -> Iterator[Any]:
    """The dashboard's banner over the live view (a Playwright locator), served live from
    ``video`` with ``table``'s zones."""
    table.save(tmp_path / "table.json")
    with LiveServer(create_app(make_settings(tmp_path, source=str(video),
                                             table=tmp_path / "table.json",
                                             frame_rate=30))) as server:
        page = browser.new_page(viewport={"width": 1600, "height": 900})
        page.goto(server.url + "/")
        yield page.locator("#camera-alert")
        page.close()


@pytest.mark.browser
def test_the_page_says_when_the_camera_was_bumped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  browser: Any) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    monkeypatch.setattr("vision.detector.Detector", NoCards)
    video = tmp_path / "game.mp4"
    write_bumped_video(video, frames=120, bump_at=12)   # 10 s, bumped at the first
    table = TableLayout.default([(80, 40), (560, 40), (560, 440), (80, 440)], (640, 480))
    with camera_alert(tmp_path, browser, video, table) as alert:
        expect(alert).to_contain_text("camera moved (1×), held to the table", timeout=9_000)
        expect(alert).to_have_class(re.compile("calm"))


@pytest.mark.browser
def test_the_page_says_when_the_seat_zones_are_too_small_to_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, browser: Any) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    monkeypatch.setattr("vision.detector.Detector", NoCards)
    video = tmp_path / "game.mp4"
    write_bumped_video(video, frames=120, shift=(0, 0))
    # A play area 90 px square on a 640x480 camera: 405 px even enlarged three times.
    table = TableLayout.default([(275, 195), (365, 195), (365, 285), (275, 285)], (640, 480))
    with camera_alert(tmp_path, browser, video, table) as alert:
        expect(alert).to_contain_text("zones too small: the seat zones cover a square only 405 px",
                                      timeout=9_000)
        expect(alert).to_contain_text("bring the camera closer")
        expect(alert).not_to_have_class(re.compile("calm"))


def test_dragging_a_seat_zone_corner_saves_the_table_file(
        table_with_video: LiveServer, browser: Any, tmp_path: Path) -> None:
    before = [seat.polygon for seat in TableLayout.load(tmp_path / "table.json").seats]
    with table_with_video as server:
        page = browser.new_page(viewport={"width": 1600, "height": 900})
        page.goto(server.url + "/")
        expect = pytest.importorskip("playwright.sync_api").expect
        expect(page.locator("#video")).to_be_visible()
        expect(page.locator("#connection")).to_have_class(re.compile("online"))
        # The zones overlay the picture: wait for its size to settle before aiming at a corner.
        page.wait_for_function("document.querySelector('#video').naturalWidth > 0")
        page.keyboard.press("k")
        handle = page.locator("#zones circle.handle").nth(1)  # seat 0's outer corner
        expect(handle).to_be_visible()
        box = handle.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + 30, y - 20, steps=5)
        page.mouse.up()
        page.click("#save-zones")
        expect(page.locator("#zones")).to_be_hidden()
        page.close()
    after = [seat.polygon for seat in TableLayout.load(tmp_path / "table.json").seats]
    corner = before[0][1]
    for old_zone, new_zone in zip(before, after, strict=True):
        for old, new in zip(old_zone, new_zone, strict=True):
            if old == corner:  # the dragged corner moved in every zone sharing it
                assert new[0] > old[0] and new[1] < old[1]  # right and up, in image pixels
            else:
                assert new == pytest.approx(old, abs=0.5)
    assert after[0][1] != corner
    assert load_view(tmp_path / "table.json", (640, 480)) is not None   # the view they fit


def test_a_new_camera_gets_a_first_table_file_to_calibrate(tmp_path: Path) -> None:
    from assistant.commands.serve import _start_table

    write_video(tmp_path / "camera.mp4")
    _start_table(str(tmp_path / "camera.mp4"), tmp_path / "table.json")
    layout = TableLayout.load(tmp_path / "table.json")
    assert layout.image_size == (320, 240)
    view = load_view(tmp_path / "table.json", (320, 240))   # the picture it was sized on
    assert view is not None and np.abs(view[5, 5].astype(int) - (40, 110, 40)).max() < 8
    centres = [tuple(np.mean(seat.polygon, axis=0)) for seat in layout.seats]
    assert [layout.seat_at(centre) for centre in centres] == list(range(6))


def test_serve_asks_the_source_for_the_size_and_rate_given(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assistant.cli import main

    served = []
    monkeypatch.setattr("assistant.commands.serve._run",
                        lambda args, options, **_: served.append(options) or 0)
    write_video(tmp_path / "camera.mp4")  # 320×240 at 12 frames a second
    table = tmp_path / "table.json"
    assert main(["serve", "--source", str(tmp_path / "camera.mp4"), "--table", str(table),
                 "--size", "640x360", "--fps", "6", "--no-steady"]) == 0
    assert TableLayout.load(table).image_size == (640, 360)  # sized on a picture as asked
    assert served[0]["source_size"] == (640, 360) and served[0]["source_fps"] == 6.0
    assert served[0]["steady"] is False


def test_the_pipeline_reads_the_source_at_the_rate_asked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("vision.detector.Detector", NoCards)
    video, table = tmp_path / "game.mp4", tmp_path / "table.json"
    write_video(video)  # 18 frames at 12 a second
    TableLayout.default([(40, 20), (280, 20), (280, 220), (40, 220)], (320, 240)).save(table)
    server = LiveServer(create_app(make_settings(tmp_path, source=str(video), table=table,
                                                 source_fps=6)))
    with server, httpx.Client(base_url=server.url) as http:
        camera = camera_once_ended(http)
    assert camera["frames"] == 9


def test_a_folder_of_images_plays_at_the_rate_asked_as_a_camera_would(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("vision.detector.Detector", NoCards)
    folder, table = tmp_path / "stills", tmp_path / "table.json"
    folder.mkdir()
    for index in range(9):
        cv2.imwrite(str(folder / f"{index:03d}.png"), np.full((240, 320, 3), 25 * index, np.uint8))
    TableLayout.default([(40, 20), (280, 20), (280, 220), (40, 220)], (320, 240)).save(table)
    server = LiveServer(create_app(make_settings(tmp_path, source=str(folder), table=table,
                                                 source_fps=4)))
    with server, httpx.Client(base_url=server.url) as http:
        started = time.monotonic()
        camera = camera_once_ended(http)
        played_for = time.monotonic() - started
    assert camera["frames"] == 9
    # The ninth image is due 2 s after the first (read at once, it would end in a few ms; the
    # server's start before the first look here is well under a second).
    assert played_for >= 1.0


def test_a_new_table_file_for_a_camera_that_never_opens_is_a_clear_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from assistant.cli import main

    table = tmp_path / "table.json"
    # Nothing listens on port 1: refused at once on any machine (a webcam index might open).
    code = main(["serve", "--source", "rtsp://127.0.0.1:1/table", "--table", str(table),
                 "--db", str(tmp_path / "games.sqlite3")])
    assert code == 2 and not table.exists()
    error = capsys.readouterr().err
    assert ("error: cannot open camera or stream rtsp://127.0.0.1:1/table: a new table file is "
            "sized on its first picture") in error
    assert "VIDEOIO" not in error and "Traceback" not in error
