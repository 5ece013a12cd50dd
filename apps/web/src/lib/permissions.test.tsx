import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { can } from '@vigie/contract/values';
import { endpoints } from '@vigie/contract/routes';
import { describe, expect, it } from 'vitest';
import { fakeAuth } from '@/testing/render';
import { AuthContext } from './auth';
import { permissionsFor, useCan, usePermissions } from './permissions';

function wrapperFor(role: 'admin' | 'manager' | 'viewer' | null) {
  const auth = fakeAuth();
  const value = role === null ? { ...auth, user: null } : { ...auth, user: auth.user && { ...auth.user, role } };
  return ({ children }: { children: ReactNode }) => <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

describe('permissionsFor', () => {
  it('lets an admin do everything, members included', () => {
    expect(permissionsFor('admin')).toEqual({ role: 'admin', manage: true, manageMembers: true, acknowledgeAlerts: true, readAudit: true });
  });

  it('lets a manager do everything but members', () => {
    expect(permissionsFor('manager')).toEqual({
      role: 'manager',
      manage: true,
      manageMembers: false,
      acknowledgeAlerts: true,
      readAudit: false,
    });
  });

  it('lets a viewer read and acknowledge alerts only', () => {
    expect(permissionsFor('viewer')).toEqual({
      role: 'viewer',
      manage: false,
      manageMembers: false,
      acknowledgeAlerts: true,
      readAudit: false,
    });
  });

  it('grants nothing without a role', () => {
    expect(permissionsFor(undefined)).toMatchObject({ manage: false, manageMembers: false, acknowledgeAlerts: false, readAudit: false });
  });
});

describe('useCan', () => {
  it('refuses a manager who sees one shop what needs the whole organization, such as adding a site', () => {
    const auth = fakeAuth();
    const scoped = { ...auth, user: auth.user && { ...auth.user, role: 'manager' as const, scope: { siteIds: ['lyon'], regionIds: [] } } };
    const { result } = renderHook(() => useCan(), {
      wrapper: ({ children }: { children: ReactNode }) => <AuthContext.Provider value={scoped}>{children}</AuthContext.Provider>,
    });
    expect(result.current(endpoints.sites.create)).toBe(false);
    expect(result.current(endpoints.sites.update)).toBe(true);
    const whole = renderHook(() => useCan(), { wrapper: wrapperFor('manager') });
    expect(whole.result.current(endpoints.sites.create)).toBe(true);
  });
});

describe('usePermissions', () => {
  it.each([
    ['admin', true, true],
    ['manager', true, false],
    ['viewer', false, false],
  ] as const)('follows the signed-in user’s role (%s)', (role, manage, manageMembers) => {
    const { result } = renderHook(() => usePermissions(), { wrapper: wrapperFor(role) });
    expect(result.current).toMatchObject({ role, manage, manageMembers, acknowledgeAlerts: true });
  });

  it('grants nothing when signed out', () => {
    const { result } = renderHook(() => usePermissions(), { wrapper: wrapperFor(null) });
    expect(result.current.manage).toBe(false);
  });
});

describe('the permissions follow the endpoint catalogue', () => {
  it('grant each screen action exactly to the roles the server accepts', () => {
    for (const role of ['admin', 'manager', 'viewer'] as const) {
      const permissions = permissionsFor(role);
      expect(permissions.manage).toBe(can(role, endpoints.sites.create) && can(role, endpoints.reports.sign));
      expect(permissions.manageMembers).toBe(can(role, endpoints.members.update));
      expect(permissions.acknowledgeAlerts).toBe(can(role, endpoints.alerts.acknowledge));
      expect(permissions.readAudit).toBe(can(role, endpoints.audit.exportCsv));
    }
  });
});
