// SPDX-License-Identifier: MIT
// Layout checks of the playground, run in the page (Playwright's page.evaluate):
//  - overlaps(): the main regions (top bar, workspace, settings, chat, inspection panel) and the
//    visible controls never overlap one another. A control's rect is clipped by every ancestor
//    that clips its overflow, so content scrolled out of a box does not count; a control inside
//    another (a summary's heading) is not an overlap.
//  - unreachable(): every visible control, scrolled into view, is what the pointer hits at its
//    centre (document.elementFromPoint is the control or inside it): nothing covers or clips it.
//  - cutSelects(): settings selects too narrow to show their values whole.
//  - cramped(selector): the part of an element on screen (clipped by its scrolling ancestors) is
//    shorter than its content or `min` px, whichever is less: a view squeezed out of sight.
// Each returns a list of problems in words (empty = fine).

export const REGIONS = ['.topbar', '#workspace-panel', '#settings-panel', '.chat-column', '.right'];

const CONTROLS = 'button, input:not([type="file"]):not([type="hidden"]), select, textarea, summary, .bars .bar.clickable';

export async function overlaps(page) {
  return page.evaluate(({ regions, controls }) => {
    const describe = (e) => {
      const name = e.getAttribute('name') ? `[name=${e.getAttribute('name')}]` : '';
      const text = (e.getAttribute('aria-label') || e.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 30);
      return `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${name}${text ? ` "${text}"` : ''}`;
    };
    const problems = [];
    const area = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
      Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
    const clipped = (e) => {
      let r = e.getBoundingClientRect();
      r = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
      for (let p = e.parentElement; p && p !== document.documentElement; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const c = p.getBoundingClientRect();
        r = { left: Math.max(r.left, c.left), top: Math.max(r.top, c.top), right: Math.min(r.right, c.right), bottom: Math.min(r.bottom, c.bottom) };
      }
      return r;
    };
    const boxes = regions.map((sel) => [sel, document.querySelector(sel)])
      .filter(([, e]) => e && e.checkVisibility())
      .map(([sel, e]) => [sel, clipped(e)]);
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        if (area(boxes[i][1], boxes[j][1]) > 1) problems.push(`${boxes[i][0]} overlaps ${boxes[j][0]}`);
      }
    }
    const list = [...document.querySelectorAll(controls)].filter((e) => e.checkVisibility({ visibilityProperty: true }))
      .map((e) => [e, clipped(e)]).filter(([, r]) => r.right > r.left && r.bottom > r.top);
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const [a, ra] = list[i];
        const [b, rb] = list[j];
        if (a.contains(b) || b.contains(a)) continue;
        if (area(ra, rb) > 1) problems.push(`${describe(a)} overlaps ${describe(b)}`);
      }
    }
    return problems;
  }, { regions: REGIONS, controls: CONTROLS });
}

export async function unreachable(page) {
  return page.evaluate(({ controls }) => {
    const describe = (e) => {
      const name = e.getAttribute('name') ? `[name=${e.getAttribute('name')}]` : '';
      const text = (e.getAttribute('aria-label') || e.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 30);
      return `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${name}${text ? ` "${text}"` : ''}`;
    };
    const problems = [];
    for (const e of document.querySelectorAll(controls)) {
      if (!e.checkVisibility({ visibilityProperty: true })) continue;
      if (e.closest('details:not([open])') && e.tagName !== 'SUMMARY') continue;
      e.scrollIntoView({ block: 'center', inline: 'center' });
      const r = e.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) continue;
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      const hit = document.elementFromPoint(x, y);
      if (hit !== e && !e.contains(hit)) {
        problems.push(`${describe(e)} is covered at its centre by ${hit ? describe(hit) : 'nothing (off screen)'}`);
      }
    }
    window.scrollTo(0, 0);
    return problems;
  }, { controls: CONTROLS });
}

export async function cutSelects(page) {
  return page.evaluate(() => {
    const canvas = document.createElement('canvas').getContext('2d');
    const problems = [];
    for (const select of document.querySelectorAll('#settings select')) {
      if (!select.checkVisibility()) continue;
      const style = getComputedStyle(select);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      // The widest choice must fit beside the drop-down arrow (about 24 px) and the padding.
      const widest = Math.max(...[...select.options].map((o) => canvas.measureText(o.text).width));
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24;
      if (widest > room) problems.push(`select[name=${select.name}] shows ${Math.floor(room)} px of its ${Math.ceil(widest)} px values`);
    }
    return problems;
  });
}

export async function cramped(page, selector, min = 150) {
  return page.$eval(selector, (e, least) => {
    let r = e.getBoundingClientRect();
    let top = r.top;
    let bottom = r.bottom;
    for (let p = e.parentElement; p && p !== document.documentElement; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      r = p.getBoundingClientRect();
      top = Math.max(top, r.top);
      bottom = Math.min(bottom, r.bottom);
    }
    const need = Math.min(e.scrollHeight, least);
    return bottom - top + 0.5 < need ? `${e.id} shows ${Math.max(0, bottom - top).toFixed(0)} px of the ${need} px it needs` : null;
  }, min);
}
