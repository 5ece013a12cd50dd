import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useLayoutEffect, useRef, useState } from 'react';
import type { Device } from '../device-kinds';

/** Up to this many cards, all are in the page; beyond, only the rows near the screen are. */
export const VIRTUALIZE_FROM = 60;
/** A card's row, gap included (cards are clamped to two lines of name): the virtual rows' estimate. */
const ROW_ESTIMATE_PX = 164;
const GRID_CLASS = 'grid gap-4 sm:grid-cols-2 lg:grid-cols-3';

/** The columns of the grid at this width, as its Tailwind classes say (sm: 640 px, lg: 1 024 px). */
const columnsAt = (width: number) => (width >= 1024 ? 3 : width >= 640 ? 2 : 1);

function useColumns(): number {
  const [columns, setColumns] = useState(() => columnsAt(window.innerWidth));
  useLayoutEffect(() => {
    const onResize = () => setColumns(columnsAt(window.innerWidth));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return columns;
}

type DeviceGridProps = {
  devices: readonly Device[];
  label: string;
  renderCard: (device: Device) => ReactNode;
};

/**
 * The dashboard's cards. A shop's few devices are all rendered; a chain's thousands are rendered
 * by rows, only those near the screen (TanStack Virtual, on the window's scroll), in one list
 * whose padding stands for the rows above and below: the page keeps its height and scroll bar.
 */
export function DeviceGrid({ devices, label, renderCard }: DeviceGridProps) {
  if (devices.length <= VIRTUALIZE_FROM) {
    return (
      <ul className={GRID_CLASS} aria-label={label}>
        {devices.map(renderCard)}
      </ul>
    );
  }
  return <VirtualGrid devices={devices} label={label} renderCard={renderCard} />;
}

function VirtualGrid({ devices, label, renderCard }: DeviceGridProps) {
  const list = useRef<HTMLUListElement>(null);
  const columns = useColumns();
  // Where the list starts in the page: the rows are placed from there.
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    if (list.current) setScrollMargin(list.current.getBoundingClientRect().top + window.scrollY);
  }, [columns, devices.length]);
  const rows = Math.ceil(devices.length / columns);
  const virtualizer = useWindowVirtualizer({
    count: rows,
    estimateSize: () => ROW_ESTIMATE_PX,
    overscan: 4,
    scrollMargin,
  });
  const visible = virtualizer.getVirtualItems();
  const first = visible[0];
  const last = visible.at(-1);
  const start = (first?.index ?? 0) * columns;
  const end = Math.min(devices.length, ((last?.index ?? -1) + 1) * columns);

  return (
    <ul
      ref={list}
      className={GRID_CLASS}
      aria-label={label}
      style={{
        paddingTop: first ? first.start - scrollMargin : 0,
        paddingBottom: last ? virtualizer.getTotalSize() - (last.end - scrollMargin) : 0,
      }}
    >
      {devices.slice(start, end).map(renderCard)}
    </ul>
  );
}
