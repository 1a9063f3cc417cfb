// Grid or list for search results, remembered in localStorage under `listView` across visits.
import { useState } from 'react';

export const LIST_VIEW_STORAGE_KEY = 'listView';
export type ListView = 'grid' | 'list';

function storedView(): ListView {
  try {
    return localStorage.getItem(LIST_VIEW_STORAGE_KEY) === 'list' ? 'list' : 'grid';
  } catch {
    return 'grid';
  }
}

export function useListView(): [ListView, (view: ListView) => void] {
  const [view, setView] = useState<ListView>(storedView);
  const choose = (next: ListView) => {
    setView(next);
    try {
      localStorage.setItem(LIST_VIEW_STORAGE_KEY, next);
    } catch {
      // Private windows may refuse storage: the choice then lasts for this page only.
    }
  };
  return [view, choose];
}
