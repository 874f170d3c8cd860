// <humanlike-check>: checks a draft as it is typed and marks machine-like wording over the host's
// own textarea. One dependency-free file: served by the service at /api/embed/humanlike-check-1.js
// and exported by the package as "humanlike/embed/humanlike-check.js".
//
//   <script type="module" src="/api/embed/humanlike-check-1.js"></script>
//   <humanlike-check endpoint="/humanlike/check"><textarea></textarea></humanlike-check>
//
// It talks only to `endpoint`, a route of the host's own server (the host adapter), which adds the
// company's bundle token server-to-server: no token ever reaches the browser.
//
// Attributes: endpoint (required), mode ("structural" default, or "contextual"), situation (the
// context of contextual mode), for (id of a textarea elsewhere, instead of a wrapped one).
// Events: "humanlike-check:result" (detail: { issues, key, replayed }), "humanlike-check:error"
// (detail: { status, code, key }).
(() => {
  const TAG = 'humanlike-check';
  // Defining it twice (two script tags, two bundles) must not throw.
  if (typeof customElements === 'undefined' || customElements.get(TAG)) return;

  /** Quiet time after the last keystroke before a check starts (ms). */
  const DEBOUNCE_MS = 800;
  /** Least time between the starts of two checks (ms). */
  const MIN_INTERVAL_MS = 2000;
  /** Retries of one check after a transient 429, 503, 409 in progress or network failure. */
  const RETRY_BUDGET = 3;
  /** Longest wait between retries, whatever Retry-After says (ms). */
  const MAX_RETRY_WAIT_MS = 30000;

  const LABELS = {
    'ai-self-disclosure': 'AI disclaimer',
    'assistant-boilerplate': 'Stock assistant phrase',
    'markdown-structure': 'Document formatting',
    'excess-vocab': 'Overused word',
    'uniform-sentences': 'Uniform sentence rhythm',
    signposting: 'Essay signpost',
    'generic-caveat': 'Stock caveat',
    'em-dash': 'Em dash',
    'relentless-positivity': 'Relentless positivity',
    'ignores-situation': 'Misses the situation',
    'tone-mismatch': 'Tone does not fit',
    overpromise: 'Overpromise',
    'needless-apology': 'Needless apology',
    'over-explaining': 'Over-explaining',
  };

  const STYLE = `
    :host { display: block; position: relative; }
    .wrap { position: relative; }
    .backdrop { position: absolute; pointer-events: none; overflow: hidden; color: transparent; white-space: pre-wrap;
      overflow-wrap: break-word; box-sizing: border-box; border-color: transparent !important; background: transparent !important; }
    .backdrop mark { color: transparent; background: rgba(255, 196, 0, 0.28); border-bottom: 2px solid #d97706; border-radius: 2px; }
    .backdrop mark.high { background: rgba(239, 68, 68, 0.22); border-bottom-color: #dc2626; }
    .backdrop mark.active { outline: 2px solid #2563eb; }
    ul { list-style: none; margin: 4px 0 0; padding: 0; font: 13px/1.4 system-ui, sans-serif; }
    li { margin: 2px 0; }
    button { font: inherit; text-align: left; background: none; border: 1px solid #ddd; border-radius: 4px; padding: 2px 6px; cursor: pointer; }
    button:focus-visible { outline: 2px solid #2563eb; }
    .status { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  `;

  const randomSuffix = () => {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  };

  const retryAfterMs = (res, attempt) => {
    const header = res && res.headers.get('Retry-After');
    const seconds = header !== null && header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
    const ms = seconds !== undefined ? seconds * 1000 : 1000 * 2 ** attempt;
    return Math.min(ms, MAX_RETRY_WAIT_MS);
  };

  class HumanlikeCheck extends HTMLElement {
    constructor() {
      super();
      this._root = this.attachShadow({ mode: 'open' });
      this._root.innerHTML = `<style>${STYLE}</style><div class="wrap"><div class="backdrop" aria-hidden="true"></div><slot></slot></div>` +
        '<ul part="issues" aria-label="Writing check: machine-like wording"></ul><div class="status" role="status" aria-live="polite"></div>';
      this._backdrop = this._root.querySelector('.backdrop');
      this._list = this._root.querySelector('ul');
      this._status = this._root.querySelector('.status');
      this._timer = undefined;
      this._lastStart = -Infinity;
      this._keys = { text: undefined, key: undefined };
      this._issues = [];
      this._checkedText = undefined;
      this._onInput = () => this._schedule(DEBOUNCE_MS);
      this._onScroll = () => this._syncScroll();
      this._onResize = () => this._layout();
    }

    connectedCallback() {
      // Upgraded while the page is parsed, the element has no children yet: attach once its textarea arrives.
      this._root.querySelector('slot').addEventListener('slotchange', () => this._attach());
      if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => this._attach(), { once: true });
      this._attach();
    }

    _attach() {
      if (this._textarea || !this.isConnected) return;
      this._textarea = this._findTextarea();
      if (!this._textarea) return;
      this._textarea.addEventListener('input', this._onInput);
      this._textarea.addEventListener('scroll', this._onScroll);
      window.addEventListener('resize', this._onResize);
      this._layout();
      if (this._textarea.value.trim() !== '') this._schedule(DEBOUNCE_MS);
    }

    disconnectedCallback() {
      clearTimeout(this._timer);
      if (!this._textarea) return;
      this._textarea.removeEventListener('input', this._onInput);
      this._textarea.removeEventListener('scroll', this._onScroll);
      window.removeEventListener('resize', this._onResize);
      this._textarea = undefined;
    }

    /** The issues of the current text (empty while it is being checked). */
    get issues() {
      return this._issues.slice();
    }

    _findTextarea() {
      const id = this.getAttribute('for');
      if (id) return document.getElementById(id);
      return this.querySelector('textarea');
    }

    // One key per text: the same text (a retry, a re-check) keeps its key, new text gets a new one.
    _keyFor(text) {
      if (this._keys.text !== text) this._keys = { text, key: `embed-${Date.now()}-${randomSuffix()}` };
      return this._keys.key;
    }

    // Debounce, then hold the start until MIN_INTERVAL_MS after the previous start.
    _schedule(delayMs) {
      clearTimeout(this._timer);
      this._timer = setTimeout(() => {
        const wait = this._lastStart + MIN_INTERVAL_MS - Date.now();
        if (wait > 0) {
          this._timer = setTimeout(() => this._start(), wait);
          return;
        }
        this._start();
      }, delayMs);
    }

    _start() {
      const text = this._textarea.value;
      if (text.trim() === '') {
        this._render(text, []);
        return;
      }
      if (text === this._checkedText) return;
      this._lastStart = Date.now();
      this._send(text, this._keyFor(text), 0);
    }

    async _send(text, key, attempt) {
      const endpoint = this.getAttribute('endpoint');
      if (!endpoint) return;
      const mode = this.getAttribute('mode') === 'contextual' ? 'contextual' : 'structural';
      const body = { draft: text, mode };
      if (mode === 'contextual') body.context = { situation: this.getAttribute('situation') || '' };
      let res;
      let answer;
      try {
        res = await fetch(endpoint, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
          body: JSON.stringify(body),
          credentials: 'same-origin',
        });
        answer = await res.json().catch(() => undefined);
      } catch {
        res = undefined;
      }
      // The text changed while this was in flight: its answer would mark the wrong characters.
      if (this._textarea.value !== text) return;
      const code = answer && answer.error ? answer.error.code : undefined;
      if (res && res.ok && answer && Array.isArray(answer.issues)) {
        this._checkedText = text;
        this._render(text, answer.issues);
        this.dispatchEvent(new CustomEvent('humanlike-check:result', { detail: { issues: answer.issues, key, replayed: res.headers.get('X-Payment-Replayed') === 'true' } }));
        return;
      }
      const transient = !res || res.status === 429 || (res.status === 503 && (code !== 'contextual_unavailable' || res.headers.get('Retry-After') !== null)) ||
        (res.status === 409 && code === 'idempotency_key_in_progress');
      if (transient && attempt < RETRY_BUDGET) {
        clearTimeout(this._timer);
        // The same key: a retry of a lost or refused request is never a second charge.
        this._timer = setTimeout(() => {
          if (this._textarea.value === text) this._send(text, key, attempt + 1);
        }, retryAfterMs(res, attempt));
        return;
      }
      this._status.textContent = 'The writing check is unavailable right now.';
      this.dispatchEvent(new CustomEvent('humanlike-check:error', { detail: { status: res ? res.status : 0, code, key } }));
    }

    _render(text, issues) {
      const inRange = issues.filter((i) => Number.isInteger(i.start) && Number.isInteger(i.end) && i.start >= 0 && i.end > i.start && i.end <= text.length);
      // Marks cannot nest in the mirror: keep the first of overlapping ranges there; the list keeps all.
      const marks = [];
      let end = 0;
      for (const i of inRange.slice().sort((a, b) => a.start - b.start)) {
        if (i.start >= end) {
          marks.push(i);
          end = i.end;
        }
      }
      this._issues = inRange;
      const b = this._backdrop;
      b.textContent = '';
      let at = 0;
      marks.forEach((i) => {
        b.append(document.createTextNode(text.slice(at, i.start)));
        const mark = document.createElement('mark');
        mark.className = i.severity;
        mark.dataset.start = String(i.start);
        mark.dataset.end = String(i.end);
        mark.dataset.code = i.code;
        mark.title = `${LABELS[i.code] || i.code}: ${i.fix}`;
        mark.textContent = text.slice(i.start, i.end);
        b.append(mark);
        at = i.end;
      });
      // A trailing newline needs a character after it to take up its line.
      b.append(document.createTextNode(`${text.slice(at)}\u200b`));
      this._list.textContent = '';
      inRange.forEach((i, n) => {
        const li = document.createElement('li');
        const button = document.createElement('button');
        button.type = 'button';
        const label = LABELS[i.code] || i.code;
        button.textContent = `${label}: ${i.fix}`;
        button.setAttribute('aria-label', `${label} at characters ${i.start + 1} to ${i.end}, ${i.severity} severity. Fix: ${i.fix}`);
        button.dataset.index = String(n);
        button.addEventListener('click', () => this._select(i));
        button.addEventListener('focus', () => this._highlight(i));
        button.addEventListener('blur', () => this._highlight(undefined));
        li.append(button);
        this._list.append(li);
      });
      this._status.textContent = inRange.length === 0 ? 'No machine-like wording found.' : `${inRange.length} machine-like ${inRange.length === 1 ? 'passage' : 'passages'} marked.`;
      this._layout();
    }

    _highlight(issue) {
      for (const m of this._backdrop.querySelectorAll('mark')) {
        m.classList.toggle('active', Boolean(issue) && m.dataset.start === String(issue.start) && m.dataset.end === String(issue.end));
      }
    }

    _select(issue) {
      this._textarea.focus();
      this._textarea.setSelectionRange(issue.start, issue.end);
    }

    // The mirror copies the textarea's box and font, so its text wraps exactly where the textarea's does.
    _layout() {
      const t = this._textarea;
      if (!t) return;
      const cs = getComputedStyle(t);
      const b = this._backdrop;
      for (const p of ['font-family', 'font-size', 'font-weight', 'font-style', 'letter-spacing', 'line-height', 'text-transform', 'word-spacing', 'text-indent',
        'padding-top', 'padding-right', 'padding-bottom', 'padding-left', 'border-top-width', 'border-right-width', 'border-bottom-width', 'border-left-width',
        'border-style', 'box-sizing', 'tab-size', 'direction']) {
        b.style.setProperty(p, cs.getPropertyValue(p));
      }
      const wrap = b.parentElement.getBoundingClientRect();
      const r = t.getBoundingClientRect();
      b.style.left = `${r.left - wrap.left}px`;
      b.style.top = `${r.top - wrap.top}px`;
      b.style.width = `${r.width}px`;
      b.style.height = `${r.height}px`;
      this._syncScroll();
    }

    _syncScroll() {
      if (!this._textarea) return;
      this._backdrop.scrollTop = this._textarea.scrollTop;
      this._backdrop.scrollLeft = this._textarea.scrollLeft;
    }
  }

  customElements.define(TAG, HumanlikeCheck);
})();
