import type { SessionSummary } from '@ferngrove/shared';
import { render, screen } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { describe, expect, it, vi } from 'vitest';

import { BookingCard } from './BookingCard';

vi.mock('@/lib/api', () => ({ apiGet: vi.fn(), apiPost: vi.fn() }));

const base: SessionSummary = {
  id: 'clx0session000000000000001',
  classTypeName: 'Slow Flow',
  instructorName: 'Mira',
  startsAt: new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString(),
  durationMinutes: 60,
  capacity: 16,
  spotsLeft: 4,
  onWaitlist: false,
  myBookingStatus: null,
};

function renderCard(s: SessionSummary) {
  return render(
    <SWRConfig value={{ provider: () => new Map(), fallback: {} }}>
      <BookingCard session={s} />
    </SWRConfig>,
  );
}

describe('BookingCard', () => {
  it('offers booking while there are spots', () => {
    renderCard(base);
    expect(screen.getByRole('button', { name: 'Book' })).toBeInTheDocument();
    expect(screen.getByText('4 spots left')).toBeInTheDocument();
  });

  it('offers the waitlist when the class is full', () => {
    renderCard({ ...base, spotsLeft: 0 });
    expect(screen.getByRole('button', { name: 'Join waitlist' })).toBeInTheDocument();
  });

  it('warns that cancelling late uses the credit', () => {
    const soon = new Date(Date.now() + 2 * 3600 * 1000).toISOString();
    renderCard({ ...base, startsAt: soon, myBookingStatus: 'CONFIRMED' });
    expect(screen.getByText(/will use up your credit/)).toBeInTheDocument();
  });
});
