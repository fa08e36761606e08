"""A page built around one django-tables2 table, exported as CSV or XLSX: the public standings, round
and set pages and the league's ratings and seasons are all one.
"""

from __future__ import annotations

from django.views.generic import TemplateView
from django_tables2 import SingleTableMixin
from django_tables2.export import ExportMixin

from ..exports import SafeTableExport, sheet_name
from .query import number_param

EXPORT_FORMATS = ("csv", "xlsx")
# Big enough for a whole federation's standings on one page, small enough that no query can ask for more.
MAX_PER_PAGE = 1000


class TableExportView(ExportMixin, SingleTableMixin, TemplateView):
    """A page built around one django-tables2 table: sortable, paginated, exported as CSV or XLSX."""

    export_class = SafeTableExport
    export_formats = EXPORT_FORMATS
    table_pagination = {"per_page": 50}

    def setup(self, request, *args, **kwargs):
        super().setup(request, *args, **kwargs)
        # django-tables2 hands ?per_page=-1 to the paginator (a 500) and drops what int() refuses:
        # check both first. A page past the last still shows the last page.
        number_param(request.GET, "page")
        number_param(request.GET, "per_page", maximum=MAX_PER_PAGE)

    def get_dataset_kwargs(self):
        # A sheet's name is at most 31 characters: whole words, never cut mid-word.
        return {"title": sheet_name(self.get_sheet_title())}

    def get_caption(self) -> str:
        return ""

    def get_sheet_title(self) -> str:
        """The spreadsheet's sheet name in words (`sheet_name` fits it): the caption unless the view says
        something shorter."""
        return self.get_caption()

    def get_table_kwargs(self):
        return {"caption": self.get_caption()}

    def render_to_response(self, context, **kwargs):
        export_format = self.request.GET.get(self.export_trigger_param)
        if export_format in self.export_formats:
            return self.create_export(export_format)
        # Other tablib formats need libraries we do not install: show the page instead.
        return TemplateView.render_to_response(self, context, **kwargs)

    def export_links(self) -> list[dict[str, str]]:
        query = self.request.GET.copy()
        links = []
        for name in self.export_formats:
            query[self.export_trigger_param] = name
            links.append({"format": name.upper(), "url": f"?{query.urlencode()}"})
        return links

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(exports=self.export_links(), caption=self.get_caption())
        return context
