// OBS overlay: public information only (counts, turn, last play, places, score).
"use strict";
(() => {
  const {seatLabel, escapeHtml, cardsHtml, PLACE} = Gouji;
  const params = new URLSearchParams(location.search);
  const layout = ["bar", "ring", "side"].includes(params.get("layout")) ? params.get("layout") : "bar";
  const showNames = params.get("names") !== "0";
  const showScore = params.get("score") !== "0";
  const scale = Math.min(2, Math.max(0.5, Number(params.get("scale")) || 1));
  const stage = document.getElementById("stage");
  stage.classList.add(layout);
  if (scale !== 1) stage.style.transform = `scale(${scale})`;

  function render(st) {
    const next = Gouji.nextSeat(st);
    document.getElementById("seats").innerHTML = (st.seats || []).map((seat) => {
      const tags = [];
      if (seat.place) tags.push(`<span class="tag place">${PLACE[seat.place]}</span>`);
      else if (seat.reported && seat.count > 0) tags.push(`<span class="tag report">报户</span>`);
      if (seat.opened) tags.push(`<span class="tag open">开点</span>`);
      return `<div class="chip fed${seat.federation}${next === seat.seat ? " acting" : ""}${seat.place ? " out" : ""}" data-seat="${seat.seat}">
        <div class="top"><span class="num">${seatLabel(seat.seat)}</span>${showNames ? `<span class="name">${escapeHtml(seat.name || "")}</span>` : ""}</div>
        <div class="bottom"><span class="count">${seat.count}<small>张</small></span>${tags.join("")}</div></div>`;
    }).join("");
    document.getElementById("turn").textContent = st.turn_text;
    const trick = st.trick || {};
    document.getElementById("last").innerHTML = trick.last_cards
      ? `${seatLabel(trick.last_seat)} ${cardsHtml(trick.last_cards)}${trick.gouji ? " <b style=\"color:var(--gold)\">够级</b>" : ""}` : "";
    const scores = st.scores || {0: 0, 1: 0};
    const score = document.getElementById("score");
    score.hidden = !showScore;
    score.innerHTML = `<small>${st.round ? `第 ${st.round} 局 ` : ""}</small><span class="a">${scores["0"]}</span> : <span class="b">${scores["1"]}</span>`;
  }
  // A short drop (OBS reloading, a server restart) stays off the air; a long one shows.
  const showStatus = params.get("status") !== "0";
  let offlineTimer = null;
  Gouji.connect(render, (online) => {
    clearTimeout(offlineTimer);
    if (online) document.getElementById("offline").hidden = true;
    else if (showStatus) offlineTimer = setTimeout(() => { document.getElementById("offline").hidden = false; }, 3000);
  });
})();
