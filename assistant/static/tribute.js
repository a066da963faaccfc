// The tribute table of every finished round (进贡: kind, giver → receiver, cards, returned) and the
// match scoreboard, in Chinese and English.
"use strict";
(() => {
  const {seatLabel, escapeHtml, PLACE, PLACE_EN, TRIBUTE} = Gouji;
  const who = (st, seat) => `${seatLabel(seat)}${(st.names || [])[seat] ? " " + escapeHtml(st.names[seat]) : ""}`;

  function roundHtml(st, entry) {
    const places = entry.places
      ? Object.entries(entry.places).filter(([, p]) => p).map(([seat, p]) => [Number(seat), p])
      : entry.finish_order.map((seat, i) => [seat, i + 1]);
    const order = places.sort((a, b) => a[1] - b[1]).map(([seat, place]) =>
      `<span>${PLACE[place]} <span class="muted">${PLACE_EN[place]}</span> ${who(st, seat)}</span>`).join("");
    const rows = entry.tribute.map((row) => {
      const [zh, en] = TRIBUTE[row.kind] || [row.kind, ""];
      return `<tr data-kind="${row.kind}"><td class="kind">${zh} <span class="en">${en}</span></td>
        <td>${who(st, row.from)}</td><td>→</td><td>${who(st, row.to)}</td><td class="n">${row.cards}</td>
        <td class="${row.returned ? "yes" : "no"}">${row.returned ? "还贡 returned" : "不还 not returned"}</td></tr>`;
    }).join("");
    return `<div class="round" data-round="${entry.round}">
      <h3>第 ${entry.round} 局 <small>round ${entry.round} · A ${entry.scores["0"]} / B ${entry.scores["1"]}</small></h3>
      <div class="order">${order}</div>
      <table class="grid"><tr><th>类型 kind</th><th>进贡 giver</th><th></th><th>收贡 receiver</th><th>张数 cards</th><th>还贡 returned</th></tr>
      ${rows || '<tr><td colspan="6" class="no">无进贡 no tribute</td></tr>'}</table></div>`;
  }

  function render(st) {
    document.getElementById("game").textContent = `对局 game ${st.game.id} · ${st.ruleset || st.game.ruleset}`;
    const history = st.history || [];
    document.getElementById("rounds").innerHTML = history.length
      ? `<h2>下一局的进贡 <small>tribute for the next round</small></h2>` + history.slice().reverse().map((h) => roundHtml(st, h)).join("")
      : '<div class="empty">还没有结束的局 · no round has finished yet</div>';
    const scores = st.scores || {0: 0, 1: 0};
    document.getElementById("scores").innerHTML =
      `<tr><th>局 round</th><th class="a">联邦 A (1 3 5号)</th><th class="b">联邦 B (2 4 6号)</th></tr>` +
      history.map((h) => `<tr><td>${h.round}</td><td class="a">${h.scores["0"]}</td><td class="b">${h.scores["1"]}</td></tr>`).join("") +
      `<tr><th>合计 total</th><th class="a" id="total-a">${scores["0"]}</th><th class="b" id="total-b">${scores["1"]}</th></tr>`;
  }
  async function listGames() {
    const games = await Gouji.api("GET", "/api/games");
    document.getElementById("games").innerHTML =
      `<tr><th>对局 game</th><th>开始 started (UTC)</th><th>规则 ruleset</th><th>事件 events</th><th>导出 export</th></tr>` +
      games.map((g) => `<tr><td>${g.id}</td><td>${g.created.slice(0, 16).replace("T", " ")}</td><td>${escapeHtml(g.ruleset)}</td>
        <td>${g.events}</td><td><a href="/api/games/${g.id}/events.jsonl" download>.jsonl</a>
        <a href="/api/games/${g.id}/record.txt" target="_blank">记录 .txt</a></td></tr>`).join("");
  }
  let shownGame = null;
  Gouji.connect((st, changed) => {
    render(st);
    if (st.game.id !== shownGame || !changed || changed.has("round_over")) { shownGame = st.game.id; listGames(); }
  });
})();
