// Shared by every page: the pushed state (snapshot + numbered changes), the operator API, and
// the small pieces of Chinese text and card rendering. Plain browser JavaScript, no build step.
"use strict";

const Gouji = (() => {
  const PLACE = {1: "头科", 2: "二科", 3: "三科", 4: "四科", 5: "二落", 6: "大落"};
  const PLACE_EN = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 5: "5th", 6: "last"};
  const TRIBUTE = {
    men: ["闷贡", "silent tribute"], shao: ["烧贡", "burn tribute"],
    dian: ["点贡", "opening tribute"], luo: ["落贡", "loser's tribute"],
    chuan: ["串贡", "sweep tribute"],
  };
  const BURN = {active: "烧牌中", success: "烧成", jieshao: "解烧", failed: "烧失败"};
  const DECLARED = {ming: "明点", yu: "预点"};

  // The operator token: given once as ?token=… (printed by the server), then kept locally.
  const params = new URLSearchParams(location.search);
  if (params.get("token")) {
    localStorage.setItem("gouji-token", params.get("token"));
    params.delete("token");
    const query = params.toString();
    history.replaceState(null, "", location.pathname + (query ? "?" + query : ""));
  }

  const seatLabel = (seat) => `${seat + 1}号`;

  // The seat everyone looks at: the 对头 answering a gouji play, else the first one to act.
  function nextSeat(state) {
    const toAct = (state && !state.round_over && state.to_act) || [];
    const trick = state.trick || {};
    if (trick.answer === "duitou" && trick.last_seat !== null) {
      const duitou = (trick.last_seat + 3) % 6;
      if (toAct.includes(duitou)) return duitou;
    }
    return toAct.length ? toAct[0] : null;
  }
  const escapeHtml = (text) => String(text).replace(/[&<>"']/g,
    (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));

  function cardTokens(cards) {
    return (cards || "").toUpperCase().match(/BJ|SJ|10|[2-9TJQKA]/g) || [];
  }

  function cardsHtml(cards, size = "") {
    return `<span class="cards ${size}">` + cardTokens(cards).map((token) => {
      const face = {T: "10", "10": "10", SJ: "小王", BJ: "大王"}[token] || token;
      const kind = token === "BJ" ? "big" : token === "SJ" ? "small" : token === "2" ? "two" : "";
      return `<span class="card ${kind}">${face}</span>`;
    }).join("") + "</span>";
  }

  async function api(method, path, body) {
    const headers = {"Content-Type": "application/json"};
    const token = localStorage.getItem("gouji-token");
    if (token) headers["X-Gouji-Token"] = token;
    const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      let detail = data.detail;
      if (Array.isArray(detail)) {  // pydantic validation errors: name the field and the reason
        detail = detail.map((d) => `${(d.loc || []).slice(1).join(".") || "body"}: ${d.msg.replace(/^Value error, /, "")}`).join("; ");
      }
      throw new Error(detail || `${response.status} ${response.statusText}`);
    }
    return data;
  }

  // Keeps `state` up to date from /api/stream; calls render(state, changedKeys) after each message.
  // A gap in the change numbers or a lost connection ends in a fresh snapshot; retries back off.
  function connect(render, onStatus = () => {}) {
    let state = null, version = -1, socket = null, delay = 250, closedByUs = false;
    const open = () => {
      const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/stream`;
      socket = new WebSocket(url);
      window.goujiSocket = socket;  // for diagnostics (and the tests' reconnect check)
      socket.onopen = () => { delay = 250; };
      socket.onmessage = (message) => {
        const data = JSON.parse(message.data);
        if (data.kind === "snapshot") {
          state = data.state; version = data.version;
          render(state, null);
          onStatus(true);  // online once the page holds the state: before, no action could run
        } else if (data.kind === "change") {
          if (data.version !== version + 1) { socket.close(); return; }  // missed one: resync
          version = data.version;
          for (const [key, value] of Object.entries(data.changes)) {
            if (value === null) delete state[key]; else state[key] = value;
          }
          render(state, new Set(Object.keys(data.changes)));
        }
        document.body.dataset.version = version;
      };
      socket.onclose = () => {
        onStatus(false);
        if (closedByUs) return;
        setTimeout(open, delay);
        delay = Math.min(delay * 2, 4000);
      };
    };
    open();
    window.addEventListener("beforeunload", () => { closedByUs = true; socket && socket.close(); });
    return {get state() { return state; }};
  }

  return {PLACE, PLACE_EN, TRIBUTE, BURN, DECLARED, seatLabel, nextSeat, escapeHtml, cardTokens, cardsHtml, api, connect};
})();
