import { useState } from 'react';
import { Dialog, Tabs, TabsContent, TabsList, TabsTrigger } from '../../../../components/ui/index.ts';
import type { CanvasEngine } from '../engine/CanvasEngine.ts';
import { revealSelection } from '../engine/navigation.ts';
import { TEMPLATE_LABELS } from '../texts.ts';
import { CalendarForm } from './CalendarForm.tsx';
import { JsonImportForm } from './JsonImportForm.tsx';
import { KanbanForm } from './KanbanForm.tsx';

/** §2 template chooser: kanban setup, calendar month/year, JSON sticker import. */
export function TemplateChooser({ engine, onClose }: { engine: CanvasEngine; onClose: () => void }) {
  const [tab, setTab] = useState('kanban');
  // Kanban and calendar land at the view's centre (clamped into the bounds); JSON stickers keep §9's
  // grid. Either way the view then moves, zooming out only, until they are wholly on screen (issue 35 item 6).
  const place = (insert: () => void) => {
    insert();
    revealSelection(engine);
    onClose();
  };
  return (
    <Dialog title={TEMPLATE_LABELS.title} onClose={onClose} size="lg" testId="template-chooser">
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList aria-label={TEMPLATE_LABELS.title}>
          <TabsTrigger value="kanban" data-testid="template-tab-kanban">
            {TEMPLATE_LABELS.kanban}
          </TabsTrigger>
          <TabsTrigger value="calendar" data-testid="template-tab-calendar">
            {TEMPLATE_LABELS.calendar}
          </TabsTrigger>
          <TabsTrigger value="json-import" data-testid="template-tab-json-import">
            {TEMPLATE_LABELS.json}
          </TabsTrigger>
        </TabsList>
        <TabsContent value="kanban">
          <KanbanForm
            onCreate={(objects) => {
              place(() => engine.commands.insertAtCentre(objects));
            }}
          />
        </TabsContent>
        <TabsContent value="calendar">
          <CalendarForm
            onCreate={(objects) => {
              place(() => engine.commands.insertAtCentre(objects));
            }}
          />
        </TabsContent>
        <TabsContent value="json-import">
          <JsonImportForm
            onImport={(objects) => {
              place(() => engine.commands.insertAsIs(objects));
            }}
          />
        </TabsContent>
      </Tabs>
    </Dialog>
  );
}
