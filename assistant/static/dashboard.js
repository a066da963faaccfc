// The operator's dashboard: renders the pushed state, sends the operator's events.
"use strict";

const $ = (id) => document.getElementById(id);
const {seatLabel, escapeHtml, cardsHtml, api, PLACE, BURN, DECLARED} = Gouji;
let state = null;
let selected = null;           // seat chosen by the operator; null = automatic (first to act)
let info = {};
let soundOn = false;
let spokenUpTo = null;         // feed entries already spoken (by seq + text)
let calibration = null;        // {layout, zones} while dragging seat zones

// ---- rendering ------------------------------------------------------------------------------

function seatHtml(seat, st) {
  const badges = [];
  if (seat.place) badges.push(`<span class="badge badge-place">${PLACE[seat.place]}</span>`);
  if (seat.reported && seat.count > 0) badges.push(`<span class="badge badge-report" title="报户 report">报户 ${seat.count}</span>`);
  if (seat.opened) badges.push(`<span class="badge badge-open">开点</span>`);
  if (seat.burning) badges.push(`<span class="badge badge-burn">${BURN[seat.burning] || "烧"}</span>`);
  if (seat.declared) badges.push(`<span class="badge badge-declared">${DECLARED[seat.declared]}</span>`);
  if (seat.revolution) badges.push(`<span class="badge badge-rev">革命</span>`);
  if (seat.passed) badges.push(`<span class="badge badge-pass">过</span>`);
  const fed = seat.federation === 0 ? "A" : "B";
  return `<div class="head"><span class="num">${seatLabel(seat.seat)}</span>
      <span class="name">${escapeHtml(seat.name || "")}</span><span class="meta">联邦 ${fed}</span></div>
    <div class="row"><span class="count" data-count>${seat.count}<small>张</small></span>
      <span class="badges">${badges.join("")}</span></div>
    <div class="meta">对头 ${seatLabel(seat.duitou)}</div>`;
}

function renderSeats(st) {
  const table = $("table");
  const toAct = new Set(st.to_act || []);
  const trick = st.trick || {};
  for (const seat of st.seats || []) {
    let el = table.querySelector(`.seat[data-seat="${seat.seat}"]`);
    if (!el) {
      el = document.createElement("div");
      el.className = "seat";
      el.dataset.seat = el.dataset.pos = seat.seat;
      el.addEventListener("click", () => selectSeat(seat.seat));
      table.appendChild(el);
    }
    el.innerHTML = seatHtml(seat, st);
    const burner = trick.answer === "duitou" && toAct.has(seat.seat) && trick.last_seat !== null
      && seat.seat !== (trick.last_seat + 3) % 6;
    const next = Gouji.nextSeat(st) === seat.seat;
    el.className = `seat fed${seat.federation}` + (toAct.has(seat.seat) && !st.round_over ? (burner ? " burner" : next ? " acting" : " may") : "")
      + (seat.place ? " out" : "") + (selected === seat.seat ? " selected" : "");
  }
}

function renderTrick(st) {
  const plays = (st.trick && st.trick.plays) || [];
  $("trick").innerHTML = plays.slice(-4).map((p, i, shown) =>
    `<div class="play${i === shown.length - 1 ? " last" : ""}"><b>${seatLabel(p.seat)}</b>
      ${cardsHtml(p.cards, i === shown.length - 1 ? "lg" : "sm")}${p.gouji ? '<span class="gouji">够级</span>' : ""}${p.burn ? '<span class="gouji">烧</span>' : ""}</div>`).join("");
}

function describe(event) {
  const seat = event.seat !== undefined ? seatLabel(event.seat) + " " : "";
  switch (event.type) {
    case "play": return `${seat}出 ${cardsHtml(event.cards, "sm")}`;
    case "pass": return `${seat}过`;
    case "yield": return `${seat}让牌`;
    case "declare": return `${seat}${DECLARED[event.level]}`;
    case "revolution": return `${seat}革命`;
    case "collect": return "收牌";
    case "round": return `开局 round${event.first !== undefined ? " · 先出 " + seatLabel(event.first) : ""} (${event.ruleset || ""})`;
    case "undo": return `撤销 undo #${event.fixes}`;
    case "accept": return event.source === "inferred"  // let in by the wait (--accept-after)
      ? `到时接受 accepted after the wait #${event.fixes}` : `接受 accept #${event.fixes}`;
    default: return event.type;
  }
}

const STATUS = {effective: "", replaced: "已改", withdrawn: "已撤销", held: "待审", control: "", void: "已撤销"};

// A play vision committed shows its cards as filmed and as the detector boxed them: what the
// operator checks it against once the trick is gathered. Click: the picture full size.
const pictureUrl = (game, seq) => `/api/games/${game}/plays/${seq}/picture`;
const hasPicture = (r) => r.picture;  // kept with the record: the state says so once it is

function renderLog(st) {
  $("log").innerHTML = (st.log || []).slice().reverse().map((r) => {
    const fix = r.event.fixes && !["undo", "accept"].includes(r.event.type) ? ` <span class="muted">改 #${r.event.fixes}</span>` : "";
    const src = !r.event.source || r.event.source === "operator" ? ""
      : hasPicture(r)
        ? ` <a class="muted" href="${pictureUrl(st.game.id, r.seq)}" target="_blank" title="所见 as seen">vision ▣</a>`
        : ` <span class="muted">${r.event.source}</span>`;
    const canFix = ["play", "pass", "yield", "declare", "revolution"].includes(r.event.type) && ["effective", "held"].includes(r.status);
    return `<li class="${r.status}${r.error ? " error" : ""}" data-seq="${r.seq}"><span class="muted">#${r.seq}</span>
      <span>${describe(r.event)}${fix}${src} <span class="muted">${STATUS[r.status] || ""}</span></span>
      <span>${canFix ? `<button data-fix="${r.seq}" title="改正 correct">改</button> <button data-undo="${r.seq}" title="撤销 undo">撤</button>` : ""}</span>
      ${r.error ? `<span class="err">✗ ${escapeHtml(r.error)}</span>` : ""}</li>`;
  }).join("");
}

function heldPicture(r, game) {
  if (!hasPicture(r)) return "";
  const url = pictureUrl(game, r.seq);
  return `<a class="picture" href="${url}" target="_blank" title="所见 as seen"><img data-src="${url}" alt="#${r.seq}"></a>`;
}

function renderHeld(st) {
  const held = st.held || [];
  // A picture shown already stays as it is: fetched once, not again at each change of state.
  const shown = new Map([...$("held").querySelectorAll(".picture img")]
    .filter((img) => img.complete && img.naturalWidth).map((img) => [img.dataset.src, img]));
  $("held").innerHTML = held.length ? held.map((r) => `<li data-seq="${r.seq}">${heldPicture(r, st.game.id)}<span class="what">#${r.seq} ${describe(r.event)}
      ${r.event.conf !== undefined ? `<span class="muted">conf ${Number(r.event.conf).toFixed(2)}</span>` : ""}
      ${r.event.reason ? `<br><span class="muted">${escapeHtml(r.event.reason)}</span>` : ""}</span>
      <button data-accept="${r.seq}">接受</button><button data-fix="${r.seq}">改</button><button data-undo="${r.seq}">删</button></li>`).join("")
    : '<li class="muted" style="background:none">无 none</li>';
  // A picture that cannot be had after all (the server gone meanwhile): no empty frame.
  $("held").querySelectorAll(".picture img").forEach((img) => {
    const kept = shown.get(img.dataset.src);
    if (kept) return img.replaceWith(kept);
    img.addEventListener("error", () => img.parentElement.remove());
    img.src = img.dataset.src;
  });
}

function renderScores(st) {
  const places = Object.entries(st.places || {}).filter(([, p]) => p).sort((a, b) => a[1] - b[1]);
  $("places").innerHTML = places.length ? places.map(([seat, place]) =>
    `<div><b>${PLACE[place]}</b>${seatLabel(Number(seat))} ${escapeHtml((st.names || [])[seat] || "")}</div>`).join("")
    : '<div class="muted" style="grid-column: 1 / 4">尚无 none yet</div>';
  const scores = st.scores || {0: 0, 1: 0};
  $("match-score").innerHTML = `<span class="a">A ${scores["0"]}</span> : <span class="b">${scores["1"]} B</span>`;
  const rows = (st.history || []).map((h) => `<tr><td>${h.round}</td><td class="a">${h.scores["0"]}</td><td class="b">${h.scores["1"]}</td></tr>`);
  $("scoreboard").innerHTML = `<tr><th>局</th><th class="a">A (1 3 5号)</th><th class="b">B (2 4 6号)</th></tr>${rows.join("")}
    <tr><th>合计</th><th class="a">${scores["0"]}</th><th class="b">${scores["1"]}</th></tr>`;
}

function renderTribute(st) {
  const rows = st.round_over ? st.tribute || [] : [];
  $("tribute-box").hidden = !st.round_over;
  $("tribute").innerHTML = rows.length ? rows.map((row) => {
    const [zh, en] = Gouji.TRIBUTE[row.kind] || [row.kind, ""];
    return `<tr data-kind="${row.kind}"><td><b>${zh}</b> <span class="en">${en}</span></td><td>${seatLabel(row.from)} → ${seatLabel(row.to)}</td>
      <td>${row.cards} 张</td><td>${row.returned ? "还贡" : "不还"}</td></tr>`;
  }).join("") : '<tr><td class="muted">无进贡 no tribute</td></tr>';
}

// A refused event among the latest ones: the referee must see it at once.
function renderAlert(st) {
  const recent = (st.log || []).slice(-3).reverse();
  const refused = recent.find((r) => r.error && r.status === "effective");
  $("alert").hidden = !refused;
  if (refused) $("alert").textContent = `#${refused.seq} 规则拒绝 refused: ${refused.error} — 改正 E · 撤销 Z`;
}

function renderFeed(st) {
  const feed = (st.feed || []).slice().reverse();
  $("feed").innerHTML = feed.map((f) => `<li>${escapeHtml(f.text)}</li>`).join("");
}

function render(st, changed) {
  state = st;
  const has = (key) => !changed || changed.has(key);
  $("round").textContent = st.round ? `第 ${st.round} 局${st.round_over ? " · 结束" : ""}` : "未开局";
  $("ruleset").textContent = `规则 ${st.ruleset || st.game.ruleset}`;
  $("turn-text").textContent = st.turn_text;
  $("turn-text-en").textContent = st.turn_text_en;
  $("export-jsonl").href = `/api/games/${st.game.id}/events.jsonl`;
  $("export-txt").href = `/api/games/${st.game.id}/record.txt`;
  renderSeats(st);
  renderSeatPicks(st);
  if (has("trick")) renderTrick(st);
  if (has("log") || has("errors")) renderLog(st);
  if (has("held")) renderHeld(st);
  renderScores(st);
  renderTribute(st);
  renderAlert(st);
  if (has("feed")) { renderFeed(st); speak(st, changed); }
  if (has("next_ruleset")) $("ruleset-select").value = st.next_ruleset;
  $("sound").textContent = soundOn && st.speech ? "♪ 播报 开 on" : "♪ 播报 关 off";
  $("sound").classList.toggle("on", soundOn && st.speech);
}

function renderSeatPicks(st) {
  const auto = actingSeat();
  $("seat-picks").innerHTML = [0, 1, 2, 3, 4, 5].map((s) =>
    `<button class="seat-pick${selected === s || (selected === null && auto === s) ? " on" : ""}" data-pick="${s}" title="${selected === null ? "自动 automatic" : "已选 selected"}">${s + 1}</button>`).join("");
}

// ---- speech ----------------------------------------------------------------------------------

function speak(st, changed) {
  const feed = st.feed || [];
  const key = (f) => `${f.seq}|${f.text}`;
  const last = feed.length ? key(feed[feed.length - 1]) : null;
  if (spokenUpTo === null || !changed) { spokenUpTo = last; return; }  // never replay old news
  const start = feed.findIndex((f) => key(f) === spokenUpTo) + 1;
  const fresh = feed.slice(start);
  spokenUpTo = last;
  if (!soundOn || !st.speech || !info.speech_available) return;
  const texts = fresh.map((f) => f.text);
  if (["lead", "duitou"].includes((st.trick || {}).answer) && !st.round_over) texts.push(st.turn_text);
  playQueue(texts);
}

let queue = Promise.resolve();
function playQueue(texts) {
  for (const text of texts) {
    queue = queue.then(() => new Promise((done) => {
      const audio = new Audio(`/api/speech.wav?text=${encodeURIComponent(text.slice(0, 120))}`);
      audio.onended = audio.onerror = done;
      audio.play().catch(done);
    }));
  }
}

// ---- actions ---------------------------------------------------------------------------------

function toast(message, kind = "") {
  const el = $("toast");
  el.textContent = message;
  el.className = `toast show ${kind}`;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (el.className = "toast"), kind ? 2200 : 6000);
}

function actingSeat() {
  return state ? Gouji.nextSeat(state) : null;
}

function seatForAction() {
  const seat = selected ?? actingSeat();
  if (seat === null || seat === undefined) throw new Error("先选座 select a seat first (1–6)");
  return seat;
}

function selectSeat(seat) {
  selected = selected === seat ? null : seat;
  if (state) { renderSeats(state); renderSeatPicks(state); }
}

async function send(event) {
  try {
    const result = await api("POST", "/api/events", {...event, source: "operator"});
    if (result.error) toast(`#${result.seq} 规则拒绝 refused: ${result.error}`);
    return result;
  } catch (error) {
    toast(error.message);
  }
}

function lastPlay() {
  const log = (state && state.log) || [];
  for (let i = log.length - 1; i >= 0; i--) {
    if (log[i].event.type === "play" && ["effective", "held"].includes(log[i].status)) return log[i];
  }
  return null;
}

function openCorrect(seq) {
  const record = (state.log || []).find((r) => r.seq === seq) || lastPlay();
  if (!record) return toast("没有可改的出牌 nothing to correct");
  $("correct-seq").value = record.seq;
  $("correct-seat").innerHTML = [0, 1, 2, 3, 4, 5].map((s) => `<option value="${s}">${seatLabel(s)}</option>`).join("");
  $("correct-seat").value = record.event.seat ?? 0;
  $("correct-cards").value = record.event.cards || "";
  $("correct-dialog").dataset.event = JSON.stringify(record.event);
  $("correct-cards").closest("label").hidden = record.event.type !== "play";
  $("correct-dialog").showModal();
  $("correct-cards").focus();
}

async function submitCorrect() {
  // The correction repeats the event with the operator's seat (and cards), pointing at it.
  const {type, level, choice} = JSON.parse($("correct-dialog").dataset.event);
  const event = {type, seat: Number($("correct-seat").value), fixes: Number($("correct-seq").value)};
  if (type === "play") event.cards = $("correct-cards").value.trim();
  if (level) event.level = level;
  if (choice) event.choice = choice;
  const result = await send(event);
  if (result) toast(`#${result.seq} 改正了 #${event.fixes}`, "info");
}

function openNames() {
  $("names-fields").innerHTML = [0, 1, 2, 3, 4, 5].map((s) =>
    `<label>${seatLabel(s)} <input data-name="${s}" maxlength="24" value="${escapeHtml((state.names || [])[s] || "")}"></label>`).join("");
  $("names-dialog").showModal();
}

async function saveNames() {
  const names = [...document.querySelectorAll("[data-name]")].map((input) => input.value);
  try { await api("PUT", "/api/names", {names}); } catch (error) { toast(error.message); }
}

const ACTIONS = {
  play: () => {
    const cards = $("cards").value.trim();
    if (!cards) { $("cards").focus(); return toast("输入牌 type the cards first, e.g. TTTTT"); }
    return send({type: "play", seat: seatForAction(), cards}).then((r) => { if (r) { $("cards").value = ""; selected = null; } });
  },
  pass: () => send({type: "pass", seat: seatForAction()}).then(() => (selected = null)),
  yield: () => send({type: "yield", seat: seatForAction()}).then(() => (selected = null)),
  collect: () => send({type: "collect"}),
  undo: () => send({type: "undo"}).then((r) => r && toast(`撤销了 undid #${r.event.fixes}`, "info")),
  correct: () => openCorrect(null),
  accept: () => {
    const held = (state.held || [])[0];
    if (!held) return toast("没有待审的出牌 nothing held");
    return send({type: "accept", fixes: held.seq});
  },
  ming: () => send({type: "declare", seat: seatForAction(), level: "ming"}),
  yu: () => send({type: "declare", seat: seatForAction(), level: "yu"}),
  revolution: () => {
    const seat = seatForAction();
    $("revolution-dialog").dataset.seat = seat;
    $("revolution-title").textContent = `${seatLabel(seat)} 革命 · revolution (对头 ${seatLabel((seat + 3) % 6)})`;
    $("revolution-dialog").showModal();
  },
  round: () => {
    const event = {type: "round", ruleset: $("ruleset-select").value || state.next_ruleset};
    if (selected !== null) event.first = selected;
    selected = null;
    return send(event);
  },
  names: openNames,
  newgame: async () => {
    if (!confirm("开始新对局？本对局的记录会保留。 Start a new game? This one stays in the records.")) return;
    try { await api("POST", "/api/games"); } catch (error) { toast(error.message); }
  },
  help: () => $("help-dialog").showModal(),
  calibrate: () => startCalibration(),
  sound: async () => {
    soundOn = !soundOn;
    if (soundOn && state && !state.speech) {
      try { await api("PUT", "/api/speech", {enabled: true}); } catch (error) { toast(error.message); }
    }
    if (soundOn && !info.speech_available) toast("服务器没有 espeak-ng：静音 speech unavailable");
    render(state, new Set());
  },
};

async function run(action) {
  if (!state && action !== "help") return toast("连接中… connecting");
  try { await ACTIONS[action](); } catch (error) { toast(error.message); }
}

const KEYS = {p: "pass", y: "yield", g: "collect", z: "undo", e: "correct", a: "accept", m: "ming",
  u: "yu", r: "revolution", n: "round", w: "names", k: "calibrate", s: "sound", "?": "help"};

document.addEventListener("keydown", (e) => {
  if (document.querySelector("dialog[open]")) return;
  if (e.target === $("cards")) {
    if (e.key === "Enter") { e.preventDefault(); run("play"); }
    if (e.key === "Escape") $("cards").blur();
    return;
  }
  if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.ctrlKey && e.key !== "z" || e.metaKey || e.altKey) return;
  if (e.key >= "1" && e.key <= "6") { selectSeat(Number(e.key) - 1); return; }
  if (e.key === "/") { e.preventDefault(); $("cards").focus(); return; }
  const action = KEYS[e.key.toLowerCase()];
  if (action) { e.preventDefault(); run(action); }
});

document.addEventListener("click", (e) => {
  const target = e.target.closest("button");
  if (!target) return;
  if (target.dataset.action) run(target.dataset.action);
  else if (target.dataset.pick !== undefined) selectSeat(Number(target.dataset.pick));
  else if (target.dataset.fix) openCorrect(Number(target.dataset.fix));
  else if (target.dataset.undo) send({type: "undo", fixes: Number(target.dataset.undo)});
  else if (target.dataset.accept) send({type: "accept", fixes: Number(target.dataset.accept)});
});
$("sound").addEventListener("click", () => run("sound"));
$("calibrate").addEventListener("click", () => run("calibrate"));
$("correct-form").addEventListener("submit", (e) => { if (e.submitter && e.submitter.value === "ok") submitCorrect(); });
$("revolution-form").addEventListener("submit", (e) => {
  const choice = e.submitter && e.submitter.value;
  if (!choice || choice === "cancel") return;
  const event = {type: "revolution", seat: Number($("revolution-dialog").dataset.seat)};
  if (choice !== "none") event.choice = choice;
  send(event);
});
$("names-form").addEventListener("submit", (e) => { if (e.submitter && e.submitter.value === "ok") saveNames(); });
$("ruleset-select").addEventListener("change", async (e) => {
  try { await api("PUT", "/api/ruleset", {ruleset: e.target.value}); } catch (error) { toast(error.message); }
});

// ---- table calibration: drag the seat zones over the live view ---------------------------------

const SVG = "http://www.w3.org/2000/svg";

async function startCalibration() {
  if (!info.table) return toast("没有桌面文件 no table file: start with --table TABLE.json");
  const layout = await api("GET", "/api/table");
  calibration = {layout, zones: layout.seats.map((s) => s.polygon.map((p) => [...p]))};
  $("calibration-bar").hidden = false;
  drawZones();
}

function drawZones() {
  const svg = $("zones");
  svg.toggleAttribute("hidden", !calibration);  // an SVG element has no .hidden property
  if (!calibration) return;
  const [w, h] = calibration.layout.image_size;
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  svg.innerHTML = "";
  const radius = Math.max(w, h) / 70;
  calibration.zones.forEach((zone, seat) => {
    const poly = document.createElementNS(SVG, "polygon");
    poly.setAttribute("class", `zone fed${seat % 2}`);
    poly.setAttribute("points", zone.map((p) => p.join(",")).join(" "));
    svg.appendChild(poly);
    const cx = zone.reduce((a, p) => a + p[0], 0) / zone.length, cy = zone.reduce((a, p) => a + p[1], 0) / zone.length;
    const label = document.createElementNS(SVG, "text");
    label.setAttribute("class", "zone-label"); label.setAttribute("x", cx); label.setAttribute("y", cy);
    label.setAttribute("font-size", radius * 3); label.setAttribute("text-anchor", "middle");
    label.textContent = seatLabel(seat);
    svg.appendChild(label);
    zone.forEach((point, index) => {
      const handle = document.createElementNS(SVG, "circle");
      handle.setAttribute("class", "handle"); handle.setAttribute("r", radius);
      handle.setAttribute("cx", point[0]); handle.setAttribute("cy", point[1]);
      handle.addEventListener("pointerdown", (e) => dragHandle(e, seat, index));
      svg.appendChild(handle);
    });
  });
}

function dragHandle(event, seat, index) {
  event.preventDefault();
  const svg = $("zones");
  // Neighbouring zones share corners: a shared corner moves in every zone that has it.
  const [x0, y0] = calibration.zones[seat][index];
  const shared = [];
  calibration.zones.forEach((zone, s) => zone.forEach(([x, y], i) => {
    if (Math.abs(x - x0) < 0.5 && Math.abs(y - y0) < 0.5) shared.push([s, i]);
  }));
  const move = (e) => {
    const point = svg.createSVGPoint();
    point.x = e.clientX; point.y = e.clientY;
    const local = point.matrixTransform(svg.getScreenCTM().inverse());
    const [w, h] = calibration.layout.image_size;
    const moved = [Math.round(Math.min(Math.max(local.x, 0), w)), Math.round(Math.min(Math.max(local.y, 0), h))];
    for (const [s, i] of shared) calibration.zones[s][i] = [...moved];
    drawZones();
  };
  const up = () => { window.removeEventListener("pointermove", move); window.removeEventListener("pointerup", up); };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
}

$("save-zones").addEventListener("click", async () => {
  try {
    await api("PUT", "/api/table", {zones: calibration.zones});
    toast("座位区已保存 zones saved", "info");
    calibration = null; $("calibration-bar").hidden = true; drawZones();
  } catch (error) { toast(error.message); }
});
$("cancel-zones").addEventListener("click", () => { calibration = null; $("calibration-bar").hidden = true; drawZones(); });

// ---- camera ------------------------------------------------------------------------------------

const CAMERA_POLL_MS = 2000;
const CAMERA_MOVED_SHOWN_MS = 10000;
let cameraMoves = 0;
let cameraMovedShownUntil = 0;

// The banner over the live view: [text, calm] (a calm one is grey), or null when all is well.
function cameraBanner(camera) {
  const counts = `${camera.frames} 帧 frames · ${camera.dropped} 丢 dropped · ${camera.reconnects} 重连 reconnects`;
  if (camera.status === "opening") return [`正在打开 opening ${camera.source} …`, true];
  if (camera.status === "lost") {
    return [`摄像头断开，正在重连 camera lost ${Math.round(camera.lost_for)} s, reopening — ${camera.message || ""} (${counts})`, false];
  }
  if (camera.status === "ended") return [`视频源已停止 video stopped: ${camera.message} (${counts})`, true];
  if (camera.zones_warning) return [`座位区太小 zones too small: ${camera.zones_warning}`, false];
  if (camera.unfollowed && camera.message) {
    return [`摄像头画面对不上 ${camera.message} (${camera.unfollowed}×)`, false];
  }
  if (camera.moves > cameraMoves) {
    cameraMoves = camera.moves;
    cameraMovedShownUntil = Date.now() + CAMERA_MOVED_SHOWN_MS;
  }
  if (Date.now() < cameraMovedShownUntil) {
    return [`摄像头被碰动，已对准 camera moved (${camera.moves}×), held to the table: ${camera.shift} px, ${camera.turn}°`, true];
  }
  return null;
}

async function watchCamera() {
  try {
    const camera = await api("GET", "/api/camera");
    const [text, calm] = cameraBanner(camera) || [null, false];
    const alert = $("camera-alert");
    alert.hidden = text === null;
    alert.textContent = text || "";
    alert.classList.toggle("calm", calm);
    if (camera.status === "ended") return;  // a source that ended stays so: nothing more to ask
  } catch (error) { /* the server is away: the connection light says so */ }
  setTimeout(watchCamera, CAMERA_POLL_MS);
}

// ---- start -------------------------------------------------------------------------------------

(async () => {
  info = await api("GET", "/api/info");
  const rulesets = await api("GET", "/api/rulesets");
  $("ruleset-select").innerHTML = rulesets.map((r) => `<option value="${r}">${r}</option>`).join("");
  $("live").classList.toggle("novideo", !info.video);
  if (info.video) {
    $("video").src = "/api/video.mjpg";
    $("video").hidden = false;
    $("no-video").hidden = true;
    watchCamera();
  }
  $("calibrate").disabled = !info.table;
  Gouji.connect(render, (online) => $("connection").classList.toggle("online", online));
})();
