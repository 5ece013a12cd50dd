import type { TaskItem } from '@vigie/contract';

/** An answer to each item, as a shop gives it: all within limits, or the first one out of them. */
export type Given = { itemId: string; value: boolean | number | string };
export function answersOf(items: readonly TaskItem[], conforming: boolean): Given[] {
  return items.flatMap((item, index): Given[] => {
    const bad = !conforming && index === 0;
    switch (item.type) {
      case 'boolean':
        return [{ itemId: item.id, value: bad ? !(item.expected ?? true) : (item.expected ?? true) }];
      case 'number': {
        const low = item.min ?? 0;
        const high = item.max ?? low;
        return [{ itemId: item.id, value: bad ? high + 3 : Math.round(((low + high) / 2) * 10) / 10 }];
      }
      case 'choice': {
        const options = item.options ?? [];
        const value = bad ? item.failing?.[0] : options.find((option) => !item.failing?.includes(option));
        return value === undefined ? [] : [{ itemId: item.id, value }];
      }
      case 'text':
        return [{ itemId: item.id, value: 'RAS' }];
      case 'photo':
        return [];
    }
  });
}
