// The documentation site's one script (no inline script: the pages' Content-Security-Policy
// allows none). The menu button of narrow screens, and the search box: it loads the index
// `npm run docs:build` wrote (/docs/assets/search-index.json: guides by section, API operations,
// error codes) on first use and ranks entries in the browser. No request leaves the site.
(() => {
  const menu = document.getElementById('docs-menu');
  const menuButton = document.getElementById('docs-menu-button');
  if (menu && menuButton) {
    document.documentElement.classList.add('has-menu-button');
    menuButton.addEventListener('click', () => {
      const open = menu.classList.toggle('open');
      menuButton.setAttribute('aria-expanded', String(open));
    });
  }
})();

(() => {
  const input = document.getElementById('docs-search');
  const list = document.getElementById('docs-search-results');
  if (!input || !list) return;
  let index = null;
  let loading = null;
  let selected = -1;

  const load = () => {
    loading ??= fetch('/docs/assets/search-index.json')
      .then((response) => response.json())
      .then((entries) => {
        index = entries.map((entry) => ({
          ...entry,
          title: entry.t.toLowerCase(),
          heading: (entry.s || '').toLowerCase(),
          text: (entry.x || '').toLowerCase(),
        }));
      });
    return loading;
  };

  const terms = (query) =>
    query
      .toLowerCase()
      .split(/[^\p{L}\p{N}_./-]+/u)
      .filter(Boolean);

  /** A match in a short title or heading says more than one in a long one. */
  const weight = (field, most) => (field ? most * Math.min(1, 24 / field.length) : 0);

  /** Every term must appear; a term in the title or heading weighs more than one in the text, and guides come before the reference on a tie. */
  const score = (entry, words) => {
    let total = 0;
    for (const word of words) {
      const inTitle = entry.title.includes(word);
      const inHeading = entry.heading.includes(word);
      const inText = entry.text.includes(word);
      if (!inTitle && !inHeading && !inText) return 0;
      total += (inTitle ? weight(entry.title, 6) : 0) + (inHeading ? weight(entry.heading, 5) : 0) + (inText ? 1 : 0);
    }
    return total + (entry.k === 'guide' ? 0.5 : 0);
  };

  const snippet = (entry, words) => {
    const text = entry.x || '';
    const at = Math.max(0, text.toLowerCase().indexOf(words[0]) - 40);
    return (at > 0 ? '…' : '') + text.slice(at, at + 140);
  };

  const render = () => {
    const words = terms(input.value);
    list.replaceChildren();
    selected = -1;
    if (!words.length || !index) {
      list.hidden = true;
      return;
    }
    const hits = index
      .map((entry) => ({ entry, points: score(entry, words) }))
      .filter((hit) => hit.points > 0)
      .sort((a, b) => b.points - a.points)
      .slice(0, 12);
    if (!hits.length) {
      const empty = document.createElement('li');
      empty.className = 'empty';
      empty.textContent = `Nothing found for “${input.value.trim()}”`;
      list.append(empty);
    }
    for (const { entry } of hits) {
      const item = document.createElement('li');
      item.setAttribute('role', 'option');
      const link = document.createElement('a');
      link.href = entry.u;
      const title = document.createElement('strong');
      title.textContent = entry.s ? `${entry.t} › ${entry.s}` : entry.t;
      const text = document.createElement('span');
      text.textContent = snippet(entry, words);
      link.append(title, text);
      item.append(link);
      list.append(item);
    }
    list.hidden = false;
  };

  const choose = (next) => {
    const items = [...list.querySelectorAll('li[role="option"]')];
    if (!items.length) return;
    selected = (next + items.length) % items.length;
    for (const [i, item] of items.entries()) item.setAttribute('aria-selected', String(i === selected));
    items[selected].scrollIntoView({ block: 'nearest' });
  };

  input.addEventListener('focus', () => void load());
  input.addEventListener('input', () => void load().then(render));
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown') choose(selected + 1);
    else if (event.key === 'ArrowUp') choose(selected - 1);
    else if (event.key === 'Escape') list.hidden = true;
    else if (event.key === 'Enter') {
      const link = list.querySelectorAll('li[role="option"] a')[Math.max(selected, 0)];
      if (link) window.location.href = link.href;
    } else return;
    event.preventDefault();
  });
  document.addEventListener('click', (event) => {
    if (!event.target.closest('.search')) list.hidden = true;
  });
  document.addEventListener('keydown', (event) => {
    if (
      event.key === '/' &&
      document.activeElement !== input &&
      !/input|textarea/i.test(document.activeElement?.tagName ?? '')
    ) {
      event.preventDefault();
      input.focus();
    }
  });
})();
