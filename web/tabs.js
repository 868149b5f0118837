// SPDX-License-Identifier: MIT
// WAI-ARIA tabs for the inspection views: click or arrow keys (Left/Right/Home/End) switch;
// only the selected tab is in the tab order. A panel that becomes visible gets a `tabshow`
// event once the others are hidden, so a view can do what needs a layout, e.g. scroll to a position.
let tabs = [];

/** Shows the panel of the tab with id `tabId`. */
export function selectTab(tabId, focus = false) {
  let shown = null;
  for (const tab of tabs) {
    const selected = tab.id === tabId;
    tab.setAttribute('aria-selected', selected ? 'true' : 'false');
    tab.tabIndex = selected ? 0 : -1;
    const panel = document.getElementById(tab.getAttribute('aria-controls'));
    if (selected && panel.hidden) shown = panel;
    panel.hidden = !selected;
    if (selected && focus) tab.focus();
  }
  shown?.dispatchEvent(new Event('tabshow'));
}

export function initTabs() {
  tabs = [...document.querySelectorAll('[role="tab"]')];
  for (const [i, tab] of tabs.entries()) {
    tab.type = 'button';
    tab.addEventListener('click', () => selectTab(tab.id));
    tab.addEventListener('keydown', (e) => {
      const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
      if (next === undefined) return;
      e.preventDefault();
      selectTab(tabs[(next + tabs.length) % tabs.length].id, true);
    });
  }
}
