// Keeps the list of open tables live: the page itself is complete without this.
"use strict";
(function () {
  const body = document.querySelector("#tables tbody");
  // a Russian page hands its words (web/words.py tables_script_words); English: these
  const SAID = JSON.parse(document.getElementById("tables").dataset.words || "null");
  const FREE = SAID ? SAID.free : "(free)";
  const AWAY = SAID ? SAID.away : " (away)";
  const EMPTY = SAID ? SAID.empty : "No table is open. Connect a client and type new.";
  const stateOf = (s) => (SAID && SAID.states[s]) || s;
  const cell = (text, href) => {
    const td = document.createElement("td");
    if (href) { const a = document.createElement("a"); a.href = href; a.textContent = text; td.append(a); }
    else td.textContent = text;
    return td;
  };
  // a seated player's name, a link to his page (as the served page has it)
  const playerLink = (name) => {
    const a = document.createElement("a");
    a.href = "/players/" + encodeURIComponent(name); a.textContent = name;
    return a;
  };
  // the players by seat, each a whole name (a phone breaks the line between names only)
  const players = (t) => {
    const td = document.createElement("td"); td.className = "players";
    t.players.forEach((p, i) => {
      const who = document.createElement("span"); who.className = "who";
      who.append(p ? playerLink(p) : FREE, t.away_s[i] === null ? "" : AWAY);
      if (i) td.append(", ");
      td.append(who);
    });
    return td;
  };
  async function refresh() {
    try {
      const reply = await fetch("/api/tables", { cache: "no-store" });
      if (!reply.ok) return;
      const { tables } = await reply.json();
      const rows = tables.map((t) => {
        const tr = document.createElement("tr");
        tr.append(cell(String(t.id), "/table/" + t.id),
          players(t), cell(t.variant),
          cell(t.options.join(", ") || "–"), cell(stateOf(t.state)), cell(t.deal ? String(t.deal) : "–"),
          cell(t.score ? t.score.join(" : ") : "–"), cell(String(t.observers)));
        return tr;
      });
      if (!rows.length) {
        const tr = document.createElement("tr"); tr.className = "empty";
        const td = cell(EMPTY); td.colSpan = 8;
        tr.append(td); rows.push(tr);
      }
      body.replaceChildren(...rows);
    } catch (e) { /* the server may be restarting: try again later */ }
  }
  setInterval(refresh, 1000);
})();
