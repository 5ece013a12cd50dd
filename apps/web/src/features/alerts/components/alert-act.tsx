import type { Alert } from '@vigie/contract';
import { CheckCircle2, Eye } from 'lucide-react';
import { DetailSection } from '@/components/ui/section';
import { ActionForm } from './action-form';
import { StepForm } from './step-form';

/**
 * What a person does on an alert: while it runs, acknowledge (any who may), record a corrective
 * action and resolve (admins and managers; resolving needs an action first); once resolved, an
 * action may still complete the record.
 */
export function AlertActSections({ alert, manage, canAcknowledge }: { alert: Alert; manage: boolean; canAcknowledge: boolean }) {
  const hasAction = alert.events.some((event) => event.type === 'action');
  // Recording a corrective action: while the alert runs, and after it, to complete the record.
  const actionForm = (placeholder: string) => <ActionForm alert={alert} placeholder={placeholder} />;
  return (
    <>
      {alert.status !== 'resolved' && (manage || canAcknowledge) && (
        <DetailSection
          id={`alert-act-${alert.id}`}
          title="Agir"
          description={
            manage
              ? 'Acquittez pour dire que vous vous en occupez, notez ce qui a été fait, puis clôturez.'
              : 'Acquittez pour dire que vous vous en occupez.'
          }
        >
          <div className="space-y-6">
            {canAcknowledge && (
              <StepForm
                alert={alert}
                label="Commentaire (facultatif)"
                placeholder="Je vais voir la vitrine."
                button="Acquitter"
                icon={<Eye className="size-4" aria-hidden="true" />}
                required={false}
                toStep={(text) => ({ kind: 'acknowledge', ...(text ? { comment: text } : {}) })}
                done="Alerte acquittée."
              />
            )}
            {manage && (
              <>
                {actionForm('Produits déplacés en chambre froide, porte refermée.')}
                <StepForm
                  alert={alert}
                  label="Clôture (facultatif)"
                  placeholder="Cause trouvée et corrigée."
                  button="Résoudre l’alerte"
                  icon={<CheckCircle2 className="size-4" aria-hidden="true" />}
                  required={false}
                  disabledReason={hasAction ? undefined : 'Enregistrez d’abord une action corrective pour pouvoir clôturer.'}
                  toStep={(text) => ({ kind: 'resolve', ...(text ? { text } : {}) })}
                  done="Alerte résolue."
                />
              </>
            )}
          </div>
        </DetailSection>
      )}
      {alert.status === 'resolved' && manage && (
        <DetailSection
          id={`alert-after-${alert.id}`}
          title="Compléter le registre"
          description="Une action menée après la fin de l’alerte s’y ajoute."
        >
          {actionForm('Lot contrôlé, produits écartés.')}
        </DetailSection>
      )}
    </>
  );
}
