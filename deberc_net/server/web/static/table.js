// Live table: reads the machine-style lines an observer's connection gets (docs/protocol.md
// §3), less the deals' records, from the page's WebSocket and redraws the board (the
// match id, for the replay's link, is the page's own or the start event's). Without it the page shows the table
// as it was when loaded.
"use strict";
(function () {
  const board = document.getElementById("board");
  const tableId = board.dataset.table;
  let names = board.dataset.players.split(",");
  const n = names.length;
  const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
  const DECK = 32;  // docs/rules.md §1
  // A Russian page hands its words (web/words.py table_script_words: docs/web.md,
  // "Languages"); an English page none, and these are its words
  const SAID = JSON.parse(board.dataset.words || "null");
  // an English page's table's own words for calls of the game's (lang.py table_words)
  const OWN = JSON.parse(board.dataset.own || "{}");
  const WORDS = Object.assign({
    away: "away: the seat is held a while", deal: "Deal {deal}", turned: " · turned ",
    talon: "Talon {talon}", hand: "cards in hand: {cards}", trump: "Trump ", fresa: "Fresa ", orderedBy: ", ordered by {name}", and: " and ", shows: "shows ",
    byClock: " (by the clock)",
    replay: "Replay it", gone: "No longer live: ", over: "the match is over.",
    refused: "the live connection was refused or lost. Reload the page to watch again.",
    closed: "table {table} has closed.",
    unreachable: "the server cannot be reached: it has stopped, or the connection was lost.",
    notFinished: "the match was not finished.", stopped: "Not finished: {why} while it ran.",
    hangingNow: "Hanging: {hanging}.", hangsThen: ", then {points}",
    hangingNowAfter: "Hanging: {hanging} for this deal, {after} for the next{later}.",
    dealHanging: "hanging {hanging}", wonBy: "won by {side}",
    rematchOffer: "Its players may agree to a rematch within {seconds} s: it will be linked here.",
    rematchAt: "The rematch is at table {table}: ", watchIt: "watch it",
    noRematch: "No rematch: its players did not agree to one.",
  }, SAID ? SAID.words : {});
  const FREE = SAID ? SAID.free : "(free)";
  const rankOf = (r) => (SAID && SAID.ranks[r]) || r;  // 'A', or «Т»
  // a deal's outcome as the sheet says it: an English page's code but a void deal's,
  // dealt again, and a claimed one's (lang.py EN_OUTCOMES)
  const OUTCOMES = SAID ? SAID.outcomes : { void: "redealt", claim: "claimed" };
  const outcomeOf = (o) => OUTCOMES[o] || o;
  // a game with a talon (Tertz: its state says talon=): the cards played this deal,
  // so that the talon is the deck less the hands and those (talon() below)
  // deal: null until a state line or a deal event tells it (a waiting table tells neither)
  // (a talon game: the served page says so, for a page opened before any state line)
  const st = { trick: [], talk: [], handSizes: [], match: board.dataset.match || null, toAct: null,
               hasTalon: board.dataset.talon === "1", played: 0, deal: null, turned: null };
  // What the clock made this deal for a seat whose time ran out (auto=1), marked as the
  // replay marks it: the places in the state's talk= of its calls, and the cards it
  // played; as served (the page's data-clock), then as the events tell it, so that a
  // state line (the socket's first) keeps the marks its talk= does not carry
  const noClock = (deal) => ({ deal, calls: 0, talk: [], cards: [] });
  st.clock = JSON.parse(board.dataset.clock || "null") || noClock(null);
  st.calls = st.clock.calls;  // the calls made this deal (the talk's, no card)
  const clockMark = (made) => (made ? WORDS.byClock : "");
  window.debercLines = [];  // every line received, for the tests (and the curious)

  function parse(line) {
    const out = { tag: "", fields: {} };
    const t = line.indexOf(" text=");
    let text = null;
    if (t >= 0) { text = line.slice(t + 6); line = line.slice(0, t); }
    const words = line.split(" ");
    out.tag = words[0];
    for (const w of words.slice(1)) {
      const i = w.indexOf("=");
      if (i > 0) out.fields[w.slice(0, i)] = w.slice(i + 1);
    }
    if (text !== null) out.fields.text = text;
    return out;
  }
  const list = (v) => (!v || v === "-") ? [] : v.split(",");
  // A call as spoken, as the human style and the replay write it (docs/protocol.md §3,
  // protocol/lang.py spoken_call): 'igrayu-h' is 'igrayu ♥', 'ot-K' 'ot korolya',
  // 'lomayu-4' 'lomayu 4'.
  const RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"];
  const GENITIVE = ["semerki", "vosmerki", "devyatki", "desyatki", "valta", "damy", "korolya", "tuza"];
  function spoken(token) {
    if (SAID) return SAID.calls[token] || token.replace(/-/g, " ");  // as the table says it
    if (OWN[token]) return OWN[token];  // the table's own English word: Tertz's 'mariage'
    let m = /^(10|[789JQKA])([shdc])$/.exec(token);
    if (m) return m[1] + SUITS[m[2]];
    m = /^ot-(10|[789JQKA])(-kozyrnogo)?$/.exec(token);
    if (m) return "ot " + GENITIVE[RANKS.indexOf(m[1])] + (m[2] ? " kozyrnogo" : "");
    m = /^igrayu-([shdc])$/.exec(token);
    if (m) return "igrayu " + SUITS[m[1]];
    return token.replace(/-/g, " ");
  }
  window.debercSpoken = spoken;  // for the tests: checked against spoken_call
  // cards a seat showed ('pokazyvayu'): public at the table (docs/rules.md §3.5)
  const showsText = (cards) => WORDS.shows + cards.map(spoken).join(" ");
  // how a match ended, in words: the page holds them (web/ends.py's END_WORDS, '{who}'
  // the forfeit's, SIDE_WORDS, '{winners}' the winners', and OVER_FORMS), said as
  // match_over_words says them on the replay
  const ENDS = JSON.parse(board.dataset.ends || '{"why": {}, "side": {}, "over": {}}');
  function overText(winners, reason, who) {
    const form = winners.length ? (winners.length > 1 ? "side" : "one")
      : reason === "internal" ? "none" : "draw";
    // (functions: a name's '$' is not a replacement pattern)
    const named = () => winners.join(WORDS.and);
    // (a Russian page's 'anon': a forfeit's words when who lost it is not known)
    const anon = !who && ENDS.anon && ENDS.anon[reason];
    const why = winners.length && ENDS.side[reason]
      ? ENDS.side[reason].replace("{winners}", named)
      : anon || (ENDS.why[reason] || reason).replace("{who}", () => who || "a player");
    return ENDS.over[form].replace("{winners}", named).replace("{why}", () => why);
  }
  window.debercOverText = overText;  // for the tests: checked against match_over_words
  // A table's closing words come as the wire's English info line ('Table 3 closes:
  // SIGTERM received.'); a Russian page says them as the server's Russian does, read
  // back by the catalogue's sentences its words hand (SAID.closes: web/words.py); a
  // reason not among them (a free text) is kept as it came, as the server's Russian does.
  const QUOTED = /[.*+?^${}()|[\]\\]/g;
  function readBy(english, text) {  // the values of an English template's {names}, or null
    const parts = english.split(/\{(\w+)\}/);
    const keys = parts.filter((_, i) => i % 2);
    const pattern = parts.map((p, i) => (i % 2 ? "(.+?)" : p.replace(QUOTED, "\\$&"))).join("");
    const found = new RegExp("^" + pattern + "$").exec(text);
    return found && Object.fromEntries(keys.map((k, i) => [k, found[i + 1]]));
  }
  const filled = (template, values) => template.replace(/\{(\w+)\}/g, (_, k) => values[k]);
  function closesText(text) {
    if (!SAID) return text;
    for (const [english, russian] of SAID.closes.forms) {
      const values = readBy(english, text);
      if (!values) continue;
      for (const [en, ru] of SAID.closes.reasons) {
        const why = readBy(en, values.reason);
        if (why) { values.reason = filled(ru, why); break; }
      }
      return filled(russian, values);
    }
    return text;
  }
  window.debercClosesText = closesText;  // for the tests: checked against the catalogue
  // a seat's true konets: the wire's reason is 'claim' as for the server's own claim;
  // the words say which (web/ends.py's 'konets', docs/rules.md §10). At a manual-claim
  // table (data-konets, as served) the server never claims itself: every claim is a
  // konets, whether or not this page heard the call (it may have opened after it)
  const told = (reason, konets) => reason === "claim" && konets ? "konets" : reason;
  const KONETS_TABLE = board.dataset.konets === "1";
  function endText(f) {
    const who = f.forfeit !== undefined && f.forfeit !== "-" ? names[Number(f.forfeit)] : null;
    return overText(list(f.name), told(f.reason, KONETS_TABLE), who);
  }
  window.debercEndText = endText;  // for the tests: a match-end event's words
  const num = (v) => (v === undefined || v === "-") ? null : Number(v);
  // (functions: a name's '$' is not a replacement pattern)
  const put = (template, values) => template.replace(/\{(\w+)\}/g, (_, k) => values[k]);
  const thenSums = (sums) => sums.map((p) => put(WORDS.hangsThen, { points: p })).join("");
  // What hangs now, as each deal's start tells the players (docs/rules.md §5: a state
  // line's or a deal event's hanging=, under hanging-separate hanging_after= too)
  function setHanging(f) {
    const hanging = Number(f.hanging || 0), after = list(f.hanging_after);
    let text = "";
    if (after.length) {
      text = put(WORDS.hangingNowAfter,
        { hanging, after: after[0], later: thenSums(after.slice(1)) });
    } else if (hanging) text = put(WORDS.hangingNow, { hanging });
    setText("hanging", text);
  }
  // A short game's deal (the most points win it whoever ordered: docs/rules.md §11;
  // the page is told so as served, data-on-points) by its winner, as the table and
  // its sheet said it ('won by bob', 'won by ann (gave-up)'): render.deal_word
  const ON_POINTS = board.dataset.onPoints === "1";
  function dealWord(outcome, written) {
    if (!ON_POINTS || !["made", "bide", "gave-up"].includes(outcome) || !written.length) {
      return outcomeOf(outcome);
    }
    const scores = written.map(Number);
    const side = scores.indexOf(Math.max(...scores));
    const winner = names.filter((_, seat) => seat % written.length === side).join("+");
    const said = outcome === "gave-up" ? winner + " (" + outcomeOf(outcome) + ")" : winner;
    return put(WORDS.wonBy, { side: said });
  }
  window.debercDealWord = dealWord;  // for the tests: checked against render.deal_word

  // the cards' names in the page's language (web/words.py card_names): a screen reader
  // reads a card as 'queen of hearts', «дама червей», not as its rank and symbol
  const CARDS = JSON.parse(board.dataset.cards);
  function cardEl(text) {
    const s = document.createElement("span");
    const suit = text.slice(-1), rank = text.slice(0, -1);
    s.className = "card suit-" + suit;
    s.dataset.card = text;
    s.setAttribute("role", "img");
    const name = CARDS.form.replace("{rank}", CARDS.ranks[rank]).replace("{suit}", CARDS.suits[suit]);
    s.setAttribute("aria-label", name);
    s.textContent = rankOf(rank) + SUITS[suit];
    return s;
  }
  function drawSeats() {
    for (let seat = 0; seat < n; seat++) {
      const el = document.getElementById("seat-" + seat);
      if (!el) continue;
      const name = el.querySelector(".name");
      name.title = names[seat] === "-" ? FREE : names[seat];
      // its span (style.css): a seated player's name a link to his page, as served
      const shown = name.firstElementChild;
      if (names[seat] === "-") shown.textContent = FREE;
      else if (shown.firstElementChild?.textContent !== names[seat]) {
        const a = document.createElement("a");
        a.href = "/players/" + encodeURIComponent(names[seat]); a.textContent = names[seat];
        shown.replaceChildren(a);
      }
      el.classList.toggle("to-act", st.toAct === seat);
      const hand = el.querySelector(".hand");
      const backs = [];
      for (let i = 0; i < (st.handSizes[seat] || 0); i++) {
        const b = document.createElement("span"); b.className = "card back"; backs.push(b);
      }
      hand.replaceChildren(...backs);
      // the backs say nothing to a screen reader: the hand's name says how many
      hand.setAttribute("aria-label", WORDS.hand.replace("{cards}", backs.length));
      const laid = [];
      for (const p of st.trick.filter((p) => p.seat === seat)) {
        laid.push(cardEl(p.card));
        if (!st.clock.cards.includes(p.card)) continue;
        const mark = document.createElement("span");  // as the served page marks it
        mark.className = "by-clock"; mark.textContent = WORDS.byClock;
        laid.push(mark);
      }
      el.querySelector(".laid").replaceChildren(...laid);
    }
  }
  // The served page says how long an away seat is held; live, only that it is away.
  function markAway(seat, away) {
    const el = document.getElementById("seat-" + seat);
    if (!el) return;
    el.querySelector(".away")?.remove();
    if (!away) return;
    const note = document.createElement("div");
    note.className = "away"; note.textContent = WORDS.away;
    el.querySelector(".name").after(note);  // where the served page has it
  }
  function drawTalk() {
    const ol = document.getElementById("talk");
    ol.replaceChildren(...st.talk.map((t) => {
      const li = document.createElement("li"); li.textContent = t; return li;
    }));
    ol.scrollTop = ol.scrollHeight;
  }
  const setText = (id, text) => { document.getElementById(id).textContent = text; };
  // the deal's number and the face-up card (none: "-" or null)
  function setStatus(deal, turned) {
    st.deal = deal;
    st.turned = turned && turned !== "-" ? turned : null;
    drawStatus();
  }
  // The cards left to draw: the deck less the hands and the cards played (the hand
  // sizes come after each draw, docs/web.md); null without a talon.
  const talon = () => st.hasTalon
    ? DECK - st.handSizes.reduce((a, b) => a + b, 0) - st.played : null;
  function drawStatus() {
    // no deal yet (a waiting table's first message has no state line): the served
    // "Waiting for players" stands
    if (st.deal === null || st.deal === undefined) return;
    const left = talon();
    // the turned card is the talon's last: once drawn it lies in a hand
    const shown = st.turned !== null && left !== 0;
    setText("status", WORDS.deal.replace("{deal}", st.deal) + (shown ? WORDS.turned : ""));
    if (shown) document.getElementById("status").append(cardEl(st.turned));
    setText("talon", left === null ? "" : WORDS.talon.replace("{talon}", left));
  }
  // the talon's bottom card, face up once the last cards are dealt (none: '-', null)
  function setFresa(card) {
    setText("fresa", "");
    if (card && card !== "-") document.getElementById("fresa").append(WORDS.fresa, cardEl(card));
  }
  // the trump suit in its colour, as the served page writes it (macros.html suit)
  function setTrump(s, who) {
    setText("trump", "");
    if (!s || s === "-") return;
    const suit = document.createElement("span");
    suit.className = "suit-" + s;
    suit.textContent = SUITS[s];
    document.getElementById("trump").append(WORDS.trump, suit);
    if (who === null) return;
    // who ordered it, as the replay says it (', ordered by ann'; the name kept whole)
    const [before, after] = WORDS.orderedBy.split("{name}");
    document.getElementById("trump").append(before, whoEl(names[who]), after);
  }
  // a name kept whole, never broken at its hyphens (style.css .who)
  function whoEl(name) {
    const s = document.createElement("span");
    s.className = "who"; s.textContent = name;
    return s;
  }
  // Hand sizes are public counts, not in an observer's lines: each card played takes
  // one from its seat. Nor do the lines say whose turn it is. The server tells both
  // (JSON, {"hand_sizes": [...], "to_act": N}, after a message's last line) whenever
  // the sizes are not what the hands hold or another seat is to act (docs/web.md): the
  // mark is the table's, never worked out here.
  function onNote(text) {
    const note = JSON.parse(text);
    if ("rematch_offer" in note) { onRematchOffer(note.rematch_offer); return; }
    st.handSizes = note.hand_sizes;
    if (note.to_act !== undefined) st.toAct = note.to_act;
    drawSeats(); drawStatus();
  }

  function onState(f) {
    const leader = num(f.leader);
    st.trick = list(f.trick).map((card, i) => ({ seat: (leader + i) % n, card }));
    // each seat's shown cards right after its last 'pokazyvayu', as the served page
    // lists them (a Tertz seat shows at several tricks: the state holds them as one)
    const shown = {};
    for (const t of list(f.shown)) { const [s, c] = t.split(":"); (shown[s] = shown[s] || []).push(c); }
    const talk = list(f.talk).map((t) => t.split(":"));
    const lastShow = {};
    talk.forEach(([s, c], i) => { if (c === "pokazyvayu") lastShow[s] = i; });
    if (String(st.clock.deal) !== f.deal) st.clock = noClock(f.deal);  // another deal
    st.calls = talk.length;
    st.talk = [];
    talk.forEach(([s, c], i) => {
      st.talk.push(names[s] + ": " + spoken(c) + clockMark(st.clock.talk.includes(i)));
      if (lastShow[s] === i && shown[s]) { st.talk.push(names[s] + ": " + showsText(shown[s])); delete shown[s]; }
    });
    for (const s of Object.keys(shown)) st.talk.push(names[s] + ": " + showsText(shown[s]));
    st.hasTalon = f.talon !== undefined;
    st.played = list(f.tricks).reduce((a, b) => a + Number(b), 0) * n + st.trick.length;
    st.toAct = num(f.to_act);
    setStatus(f.deal, f.turned);
    setTrump(f.trump, num(f.player));
    setFresa(f.fresa);
    setText("score", list(f.score).join(" : "));
    setHanging(f);
    drawTalk();
  }
  // each side's names in the score's order: pairs sit opposite with four players; each
  // name whole, a line broken after a '+' or at ' : ' (as the served page writes them)
  function setSides() {
    const count = names.length === 4 ? 2 : names.length;
    const parts = [];
    for (let side = 0; side < count; side++) {
      if (side) parts.push(" : ");
      names.filter((_, seat) => seat % count === side).forEach((name, i) => {
        if (i) parts.push("+", document.createElement("wbr"));
        parts.push(whoEl(name));
      });
    }
    document.getElementById("sides").replaceChildren(...parts);
  }
  function onEvent(f) {
    switch (f.kind) {
      case "start":
        names = list(f.players); st.match = f.match; setSides(); break;
      case "seated": names[Number(f.seat)] = f.name; break;
      case "left": names[Number(f.seat)] = "-"; markAway(f.seat, false); break;
      case "away": case "back": markAway(f.seat, f.kind === "away"); break;
      case "deal":
        st.trick = []; st.talk = []; st.played = 0;
        st.clock = noClock(f.deal); st.calls = 0;
        setStatus(f.deal, f.turned);
        setFresa(null);
        // a game with a talon (Tertz) has no bidding: the turned card is trump from the
        // deal's start, and no order event will say it (as the terminal client reads it)
        setTrump(st.hasTalon && f.turned && f.turned !== "-" ? f.turned.slice(-1) : null, null);
        setText("score", list(f.score).join(" : "));
        setHanging(f);
        break;
      case "call":
        if (f.auto === "1") st.clock.talk.push(st.calls);
        st.calls += 1;
        st.talk.push(names[Number(f.seat)] + ": " + spoken(f.call) + clockMark(f.auto === "1"));
        // the seven swap: the trump 7 lies face up where the turned card was, from now
        if (f.call === "menyayu" && st.turned) setStatus(st.deal, "7" + st.turned.slice(-1));
        break;
      case "shown": st.talk.push(names[Number(f.seat)] + ": " + showsText(list(f.cards))); break;
      case "order":
        // four players: the turned card goes to the dealer's hand (its state says
        // turned=-, docs/protocol.md §6.3), so it is no longer shown
        if (n === 4) setStatus(st.deal, null);
        setTrump(f.trump, num(f.player)); setFresa(f.fresa); break;
      case "dealt": setFresa(f.fresa); break;
      case "play": {
        const seat = Number(f.seat);
        if (st.trick.length >= n || st.trickDone) { st.trick = []; st.trickDone = false; }
        st.trick.push({ seat, card: f.card });
        if (f.auto === "1") st.clock.cards.push(f.card);
        st.played += 1;
        if (st.handSizes[seat]) st.handSizes[seat] -= 1;
        break;
      }
      case "trick": st.trickDone = true; break;  // the cards stay until the next lead
      case "deal-end": {
        setText("score", list(f.totals).join(" : "));
        setHanging(f);  // what the next deal plays for
        document.querySelector("#deals tbody").append(dealRow(f));
        break;
      }
      case "match-end": {
        setText("score", list(f.totals).join(" : "));
        showOver(endText(f));
        st.toAct = null;
        break;
      }
    }
    drawSeats(); drawTalk();
  }
  // one row of the deals' list: a deal-end event's, or a sheet-deal line's
  function dealRow(f) {
    const tr = document.createElement("tr");
    // and what hung after it, as the sheet notes it ('hanging 35, then 35')
    const hung = Number(f.hanging || 0)
      ? ", " + put(WORDS.dealHanging, { hanging: f.hanging + thenSums(list(f.hanging_after)) }) : "";
    const outcome = dealWord(f.outcome, list(f.written)) + hung;
    for (const v of [f.deal, outcome, list(f.written).join(" : "), list(f.totals).join(" : ")]) {
      const td = document.createElement("td"); td.textContent = v; tr.append(td);
    }
    return tr;
  }
  // the match's end in words, and its replay's link when the page knows the match
  function showOver(text) {
    st.over = true;
    const over = document.getElementById("over");
    over.replaceChildren(text + " ");
    if (st.match) {
      const a = document.createElement("a");
      a.href = "/games/" + st.match; a.id = "replay-link"; a.textContent = WORDS.replay;
      over.append(a);
    }
  }
  // Once the match is over its socket stays open while its players may agree to a
  // rematch (the feed's note: the seconds left, or null once it ended untaken); if they
  // do, the page is told where it starts as an observer is ('info rematch=T2 table=T'),
  // and links it: the visitor goes on when he likes, the result still before him
  // (docs/web.md, "The live socket")
  function onRematchOffer(seconds) {
    if (st.rematch) return;
    setText("rematch", seconds === null ? WORDS.noRematch : put(WORDS.rematchOffer, { seconds }));
  }
  function showRematch(table) {
    st.rematch = table;
    const p = document.getElementById("rematch");
    const a = document.createElement("a");
    a.href = "/table/" + table; a.id = "rematch-link"; a.textContent = WORDS.watchIt;
    p.replaceChildren(put(WORDS.rematchAt, { table }), a);
  }
  function onLine(line) {
    window.debercLines.push(line);
    const { tag, fields } = parse(line);
    // the table tells its observers why it closes ('info closed=3 text=Table 3 closes:
    // SIGTERM received.'): known by its field, as a program knows it (docs/protocol.md
    // §11.4), not its English words; by them only from a worker of before the field
    // (s46), under a rolling restart (docs/scaling.md)
    const closed = fields.closed !== undefined
      ? /^\d+$/.test(fields.closed) : /^Table \d+ closes: /.test(fields.text || "");
    if (tag === "info" && closed && fields.text) {
      st.closes = closesText(fields.text);
    }
    if (tag === "info" && /^\d+$/.test(fields.rematch || "")) showRematch(fields.rematch);
    if (tag === "state") onState(fields);
    else if (tag === "event") onEvent(fields);
    // the socket's first message holds the score sheet, told with its state: the
    // deals finished since the page was served, the list redrawn whole
    else if (tag === "sheet") document.querySelector("#deals tbody").replaceChildren();
    else if (tag === "sheet-deal") document.querySelector("#deals tbody").append(dealRow(fields));
  }
  // Once the socket has closed (or was refused: the match may have ended while the page
  // loaded), the page says so and why, as far as it knows: what the table told it, else
  // what the server says of the table and its match, asked once (docs/web.md).
  function sayGone(why) {
    const gone = document.getElementById("gone");
    gone.textContent = WORDS.gone + why;
    gone.hidden = false;
  }
  const getJson = async (path) => {
    const reply = await fetch(path);
    return reply.ok ? reply.json() : null;
  };
  async function finished(match) {
    // its result is stored as its table closes: asked again a moment later if not yet
    const game = await getJson("/api/games/" + match);
    if (game) return game;
    await new Promise((done) => setTimeout(done, 1000));
    return getJson("/api/games/" + match);
  }
  async function whyNotLive() {
    if (st.over) return WORDS.over;
    if (st.closes) return st.closes;
    if (await getJson("/api/tables/" + tableId)) {
      return WORDS.refused;
    }
    const game = st.match ? await finished(st.match) : null;
    if (!game) return WORDS.closed.replace("{table}", tableId);
    setText("score", game.totals.join(" : "));
    if (game.stopped) {
      const how = ENDS.why[game.reason === "shutdown" ? "shutdown" : "server-lost"];
      showOver(WORDS.stopped.replace("{why}", () => how));
      return WORDS.notFinished;
    }
    // a forfeit names who lost it, when known, as the replay does (its seat)
    const seat = game.forfeit;
    const who = seat !== null && seat !== undefined ? game.players[seat] : null;
    // (its options tell a konets: under manual-claim the server never claims itself)
    const konets = (game.options || []).includes("manual-claim");
    showOver(overText(game.winners, told(game.reason, konets), who));
    return WORDS.over;
  }
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const socket = new WebSocket(scheme + location.host + "/live/table/" + tableId);
  socket.onmessage = (m) => {
    const parts = m.data.split("\r\n");
    const tail = parts.pop();  // after the last line's CRLF: the note, if told
    for (const l of parts) if (l) onLine(l);
    if (tail.startsWith("{")) onNote(tail);
  };
  socket.onclose = () => {
    document.body.dataset.live = "closed";
    // nobody is to act any more (the mark may be the served page's: no state came)
    st.toAct = null;
    for (const seat of document.querySelectorAll(".seat.to-act")) seat.classList.remove("to-act");
    whyNotLive().then(sayGone, () => sayGone(WORDS.unreachable));
  };
  socket.onopen = () => { document.body.dataset.live = "open"; };
  // A page left for another is kept by the browser (its back-forward cache) with its
  // socket open: the table counted it among its watchers and sent it every line till
  // the browser dropped it. Its socket closes as it is put away; shown again from
  // there, it is loaded afresh, live (docs/web.md).
  addEventListener("pagehide", (e) => {
    if (!e.persisted) return;
    socket.onclose = null;
    socket.close();
  });
  addEventListener("pageshow", (e) => { if (e.persisted) location.reload(); });
})();
