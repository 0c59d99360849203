// What a test's page showed, on every change of the page (a MutationObserver: a timer may
// be throttled past a short hand) into sessionStorage (kept over a reload):
// the hands dealt (with the 任务 shown), the result panels, the scoreboards, the watchers
// and how many hands the page held (test_web_private_e2e.py adds it to its pages).
(() => {
  if (!location.protocol.startsWith('http')) return;
  const key = 'qipai.e2e';
  const load = () => JSON.parse(sessionStorage.getItem(key) || '{"dealt": {}, "results": {}, "boards": [], "watchers": [], "hands": 0}');
  const sample = () => {
    const seen = load();
    const table = document.querySelector('[data-testid=table]');
    const result = document.querySelector('[data-testid=result]');
    const task = document.querySelector('[data-testid=task]');
    // (the last hand's result panel stays open at a table that plays on)
    if (table && table.dataset.hand && (!result || result.dataset.hand !== table.dataset.hand)) {
      seen.dealt[table.dataset.hand] = seen.dealt[table.dataset.hand] || (task ? task.dataset.task : null);
    }
    if (result && result.dataset.hand && !seen.results[result.dataset.hand]) {
      const done = result.querySelector('[data-testid=task-result]');
      seen.results[result.dataset.hand] = {
        task: done ? done.dataset.done : null,
        factor: Boolean(result.querySelector('[data-testid=multiplier-breakdown] .factor[data-reason=task]')),
      };
    }
    const board = document.querySelector('[data-testid=scoreboard]');
    if (board) {
      const cells = (el, tag) => [...el.querySelectorAll(tag)].slice(1).map((c) => Number(c.textContent));
      const rows = [...board.querySelectorAll('[data-testid=scoreboard-row]')].map((r) => cells(r, 'td'));
      const hands = [...board.querySelectorAll('[data-testid=scoreboard-row]')].map((r) => r.dataset.hand);
      const entry = {over: board.dataset.over, rows, hands, totals: cells(board.querySelector('[data-testid=scoreboard-total]'), 'th')};
      const text = JSON.stringify(entry);
      if (!seen.boards.some((b) => JSON.stringify(b) === text)) seen.boards.push(entry);
    }
    const count = document.querySelector('[data-testid=table] [data-testid=spectator-count]');
    if (count && seen.watchers[seen.watchers.length - 1] !== count.dataset.count) seen.watchers.push(count.dataset.count);
    seen.hands = Math.max(seen.hands, document.querySelectorAll('[data-testid=hand]').length);
    sessionStorage.setItem(key, JSON.stringify(seen));
  };
  const start = () => {
    new MutationObserver(sample).observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
    sample();
  };
  if (document.body) start();
  else document.addEventListener('DOMContentLoaded', start);
})()
